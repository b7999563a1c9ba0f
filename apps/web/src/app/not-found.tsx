import Link from "next/link";
import { StateMessage } from "../components/state-message";

export default function NotFound() {
  return (
    <StateMessage kind="empty" title="There is no page here.">
      <p>
        Go to the <Link href="/">Overview</Link> or the <Link href="/jobs">job list</Link>.
      </p>
    </StateMessage>
  );
}
