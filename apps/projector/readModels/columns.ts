// SELECT lists that answer in camelCase: `scenario_key AS "scenarioKey"`; bigint columns come back
// as numbers (counts and tokens stay far below 2^53) and timestamps as ISO strings.
interface ColumnSpec {
  bigint?: readonly string[];
  timestamps?: readonly string[];
}

function camel(column: string): string {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function selectList(alias: string, columns: readonly string[], spec: ColumnSpec = {}): string {
  return columns
    .map((column) => {
      const quoted = column === "group" ? `${alias}."group"` : `${alias}.${column}`;
      if (spec.bigint?.includes(column)) return `${quoted}::float8 AS "${camel(column)}"`;
      if (spec.timestamps?.includes(column)) return `to_char(${quoted} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${camel(column)}"`;
      return `${quoted} AS "${camel(column)}"`;
    })
    .join(", ");
}
