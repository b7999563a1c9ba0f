import { StateMessage } from "@raas/ui/state-message";
import Link from "next/link";

export default function NotFound() {
  return (
    <StateMessage kind="empty" title="There is no page here.">
      <p>
        Go to the <Link href="/">Overview</Link> or the <Link href="/jobs">job list</Link>.
      </p>
    </StateMessage>
  );
}
