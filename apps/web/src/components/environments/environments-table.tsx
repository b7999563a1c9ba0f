import { Badge, type TBadgeTone } from "@raas/ui/badge";
import { DataTable, type TDataColumn } from "@raas/ui/data-table";
import { formatTimestamp } from "../../lib/format";
import { oracleText, type TEnvironmentView } from "./environment-types";
import styles from "./environments.module.css";

function oracleTone(environment: TEnvironmentView): TBadgeTone {
  if (environment.oracle === null) return "muted";
  return environment.oracle.failed > 0 ? "bad" : "ok";
}

const COLUMNS: ReadonlyArray<TDataColumn<TEnvironmentView>> = [
  {
    key: "name",
    header: "name",
    cell: (env) => (
      <>
        <strong>{env.name}</strong>
        {env.description ? <div className={styles.description}>{env.description}</div> : null}
      </>
    ),
    cellTestId: (env) => `env-name-${env.name}`,
  },
  { key: "kind", header: "kind", cell: (env) => env.kind, cellTestId: (env) => `env-kind-${env.name}` },
  {
    key: "tasks",
    header: "tasks",
    isNumeric: true,
    cell: (env) => env.taskCount,
    cellTestId: (env) => `env-tasks-${env.name}`,
  },
  {
    key: "oracle",
    header: "oracle check",
    cell: (env) => <Badge tone={oracleTone(env)}>{oracleText(env)}</Badge>,
    cellTestId: (env) => `env-oracle-${env.name}`,
  },
  {
    key: "checked",
    header: "checked",
    cell: (env) => (env.oracle ? formatTimestamp(env.oracle.checkedAtMs) : "—"),
  },
  {
    key: "path",
    header: "directory on the server",
    cell: (env) => <code className={styles.path}>{env.path}</code>,
  },
];

/** The registered environments: kind, task count, last oracle check and directory. */
export function EnvironmentsTable({ environments }: { environments: readonly TEnvironmentView[] }) {
  return (
    <DataTable
      caption="Registered environments"
      columns={COLUMNS}
      rows={environments}
      rowKey={(env) => env.name}
      rowTestId={(env) => `env-row-${env.name}`}
      testId="environments-table"
    />
  );
}
