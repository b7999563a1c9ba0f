import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import { formatNumber } from "../../lib/format";
import type { TExportView } from "./trajectory-types";

type TTurnRewardView = TExportView["turnRewards"][number];

/** Who gave a per-step reward, in words. */
export function turnRewardSource(entry: TTurnRewardView): string {
  return entry.source === "tool"
    ? `tool ${entry.label ?? "?"} (call ${entry.toolCallIndex ?? "?"})`
    : "verifier";
}

/**
 * The trajectory's per-step rewards: each on its turn (linked) and that turn's sampled tokens
 * `[start, end)` in the export. Absent when there are none; the scalar reward is in the facts.
 */
export function TurnRewardsPanel({ exported }: { exported: TExportView | undefined }) {
  const rewards = exported?.turnRewards ?? [];
  if (rewards.length === 0) return null;
  const total = rewards.reduce((sum, entry) => sum + entry.reward, 0);
  return (
    <Section
      id="turn-rewards"
      title={`Per-step rewards (${rewards.length})`}
      description={`Rewards a verifier or a tool attached to turns (sum ${formatNumber(total, 3)}); the trajectory's own reward stays the one above. Tokens are offsets into the exported stream.`}
      testId="turn-rewards"
    >
      <DataTable
        caption="Per-step rewards by turn"
        testId="turn-rewards-table"
        rows={rewards}
        rowKey={(entry) =>
          `${entry.turn}:${entry.source}:${entry.toolCallIndex ?? ""}:${rewards.indexOf(entry)}`
        }
        rowTestId={(entry) => `turn-reward-${entry.turn}`}
        columns={[
          {
            key: "turn",
            header: "Turn",
            cell: (entry) => <a href={`#turn-${entry.turn}`}>turn {entry.turn}</a>,
          },
          {
            key: "reward",
            header: "Reward",
            isNumeric: true,
            cell: (entry) => formatNumber(entry.reward, 3),
          },
          { key: "source", header: "From", cell: turnRewardSource },
          {
            key: "label",
            header: "For",
            cell: (entry) => (entry.source === "verifier" ? (entry.label ?? "—") : "—"),
          },
          {
            key: "tokens",
            header: "Tokens",
            cell: (entry) =>
              entry.start === null || entry.end === null ? (
                "outside the export (token break)"
              ) : (
                <span className="mono">
                  [{entry.start}, {entry.end})
                </span>
              ),
          },
        ]}
      />
    </Section>
  );
}
