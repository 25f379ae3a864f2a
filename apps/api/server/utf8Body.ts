// A JSON request body must be UTF-8 text. Decoded leniently, a byte that is not (a Latin-1 `é`
// inside importCatalog's `yaml`) became U+FFFD and was stored without a word, where the CLI
// refuses the same file naming the byte. Thrown from express.json's `verify`, the refusal is a
// client error (400) that the error handler answers as VALIDATION, in each route's shape.
import { notUtf8At } from "@verdict/domain";

export function refuseBodyNotUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  const bad = notUtf8At(body);
  if (bad === null) return;
  const message = `request body is not UTF-8 text: the byte at offset ${bad.offset} is not valid UTF-8 (send the body as UTF-8)`;
  throw Object.assign(new Error(message), { status: 400, type: "entity.not.utf8" });
}
