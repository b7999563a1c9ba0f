import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import Link from "next/link";
import { formatNumber } from "../../lib/format";
import { trajectoryHref } from "../trajectories/trajectory-links";
import { stepHref, type TGroupView } from "./run-types";
import styles from "./runs.module.css";

const DECISION_TONES: Record<TGroupView["decision"], TBadgeTone> = {
  undecided: "info",
  informative: "ok",
  uninformative: "muted",
  failed: "bad",
};

const STATE_TONES: Record<TGroupView["state"], TBadgeTone> = {
  running: "info",
  delivered: "ok",
  dropped: "muted",
  withheld: "warn",
  carried: "warn",
  cancelled: "muted",
};

type TMember = TGroupView["members"][number];

/** What a member shows in its link: its reward once finished, else its state. */
function memberText(member: TMember): string {
  if (member.reward !== null) return `reward ${formatNumber(member.reward, 3)}`;
  return member.failureKind ? `${member.status} (${member.failureKind})` : member.status;
}

/** A step's groups: decision, state, task and every member's reward, each linking to its trajectory. */
export function GroupsTable({ groups }: { groups: readonly TGroupView[] }) {
  return (
    <DataTable
      caption="Groups of the step"
      testId="groups-table"
      rows={groups}
      rowKey={(group) => group.id}
      rowTestId={(group) => `group-row-${group.id}`}
      columns={[
        { key: "id", header: "Group", cell: (group) => <span className="mono">{group.id}</span> },
        { key: "task", header: "Task", cell: (group) => <span className="mono">{group.taskId}</span> },
        { key: "kind", header: "Kind", cell: (group) => group.kind },
        {
          key: "decision",
          header: "Decision",
          cell: (group) => (
            <Badge tone={DECISION_TONES[group.decision]} testId={`group-${group.id}-decision`}>
              {group.decision}
            </Badge>
          ),
        },
        {
          key: "state",
          header: "State",
          cell: (group) => (
            <>
              <Badge tone={STATE_TONES[group.state]} testId={`group-${group.id}-state`}>
                {group.state}
              </Badge>
              {group.expiredInStepId ? (
                <Link
                  href={stepHref(group.runId, group.expiredInStepId)}
                  className={styles.muted}
                  data-testid={`group-${group.id}-let-go`}
                >
                  {" "}
                  let go in a later step
                </Link>
              ) : null}
            </>
          ),
        },
        { key: "seq", header: "Seq", isNumeric: true, cell: (group) => group.seq ?? "—" },
        {
          key: "members",
          header: "Members (slot: reward → trajectory)",
          cell: (group) => (
            <ul className={styles.members}>
              {group.members.map((member) => (
                <li key={member.slot} data-testid={`member-${group.id}-${member.slot}`}>
                  <Link href={trajectoryHref(member.jobId)} data-testid="member-link">
                    {member.slot}: {memberText(member)}
                  </Link>
                  {member.attempts > 1 ? (
                    <span className={styles.muted}> ({member.attempts} attempts)</span>
                  ) : null}
                  {member.isStale ? <span className={styles.muted}> stale</span> : null}
                  {member.carriedFromStepId ? <span className={styles.muted}> carried</span> : null}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}
