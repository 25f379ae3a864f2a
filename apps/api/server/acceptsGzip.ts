// Whether a request's Accept-Encoding lets the server answer gzip (RFC 9110 §12.5.3): `gzip` or
// `x-gzip` listed with a weight above 0, or `*` above 0 when gzip is not listed itself.
const memo = new Map<string, boolean>(); // clients send the same few headers again and again

export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let answer = memo.get(header);
  if (answer === undefined) {
    answer = parse(header);
    if (memo.size < 256) memo.set(header, answer);
  }
  return answer;
}

function parse(header: string): boolean {
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of header.split(",")) {
    const [name, ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isNaN(weight)) continue;
    if (name === "gzip" || name === "x-gzip") gzip = Math.max(gzip ?? 0, weight);
    else if (name === "*") any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}
