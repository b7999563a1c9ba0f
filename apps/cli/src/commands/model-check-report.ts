import type { DirectoryModelFamily, FamilyConversationReport } from "@raas/inference";

interface ModelCheck {
  directory: string;
  loaded: DirectoryModelFamily;
  report: FamilyConversationReport;
}

const FIRST_FEW = 5;

function listed(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [`${title}: 0`];
  const more = items.length > FIRST_FEW ? [`  … and ${items.length - FIRST_FEW} more`] : [];
  return [`${title}: ${items.length}`, ...items.slice(0, FIRST_FEW).map((item) => `  ${item}`), ...more];
}

/** The check as a person reads it (stdout), or as JSON; missing capabilities are warnings, not failures. */
export function printModelCheck(check: ModelCheck, asJson: boolean): void {
  const { directory, loaded, report } = check;
  const { family, probe } = loaded;
  const endOfTurn = family.tokenizer.decode([family.endOfTurnId]);
  if (asJson) {
    console.log(
      JSON.stringify(
        {
          directory,
          family: family.family,
          endOfTurn: { id: family.endOfTurnId, text: endOfTurn },
          stopTokenIds: family.stopTokenIds,
          toolCallFormat: probe.toolCallFormat ?? null,
          reasoningFormat: probe.reasoningFormat ?? null,
          hasThinkingToggle: probe.hasThinkingToggle,
          supportsSystemRole: probe.supportsSystemRole,
          missing: probe.missing,
          conversations: report,
        },
        null,
        2,
      ),
    );
    return;
  }
  const lines = [
    `model family ${family.family} (${directory})`,
    `  end of turn: ${JSON.stringify(endOfTurn)} (id ${family.endOfTurnId}); stop ids ${family.stopTokenIds.join(", ")}`,
    `  tool calls: ${probe.toolCallFormat ?? "no known format"}; reasoning: ${probe.reasoningFormat ?? "no known markers"}`,
    `  system role: ${probe.supportsSystemRole ? "yes" : "no (folded into the first user message)"}; thinking toggle: ${probe.hasThinkingToggle ? "yes" : "no"}`,
    ...probe.missing.map(({ capability, reason }) => `warning: ${capability}: ${reason}`),
    `${report.conversations} generated conversations, ${report.turnPairsChecked} turn pairs checked`,
    ...listed("prompts that did not extend the previous prompt and the sampled ids", report.prefixViolations),
    ...listed("turns that did not parse back", report.roundTripFailures),
    ...listed(`parser crashes (of ${report.fuzzedResponses} malformed responses)`, report.parseCrashes),
    `malformed responses reported as the policy's tool-call errors: ${report.malformedCallsReported}`,
    `later prompts the template would have re-rendered differently: ${report.templateHistoryDifferences}` +
      (report.firstHistoryDifference ? ` (first: ${report.firstHistoryDifference})` : ""),
    ...Object.entries(report.unsupported).map(
      ([what, count]) => `not expressible by the template: ${what} (${count} turns)`,
    ),
  ];
  console.log(lines.join("\n"));
}
