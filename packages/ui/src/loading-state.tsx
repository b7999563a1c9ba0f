import { StateMessage } from "./state-message";

/** A placeholder while data loads; the title names what is being fetched. */
export function LoadingState({ title }: { title: string }) {
  return <StateMessage kind="loading" title={title} />;
}
