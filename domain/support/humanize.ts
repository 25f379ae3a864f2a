// ActiveSupport `humanize`: `response_length` -> `Response length` (criterion keys in reports).

export function humanize(text: string): string {
  const words = text.replace(/^_+/, "").replace(/_id$/, "").replace(/_/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
