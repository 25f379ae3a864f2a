// Builds a long page without a long-lived rope. Appending to a string makes V8 cons strings that
// stay alive (and are copied by every young-generation collection) until the page is flattened;
// with 5,000 results that collection work dominated rendering. Here the rope is flattened every
// ~32 KB, so the small pieces die young and only flat chunks survive until the final join.

const CHUNK = 32 * 1024;

export class Chunks {
  private readonly parts: string[] = [];
  private current = "";

  add(html: string): void {
    this.current += html;
    if (this.current.length >= CHUNK) this.flush();
  }

  private flush(): void {
    // Reading a character flattens a cons string in place.
    if (this.current.length > 0) this.current.charCodeAt(0);
    this.parts.push(this.current);
    this.current = "";
  }

  toString(): string {
    this.flush();
    return this.parts.join("");
  }
}
