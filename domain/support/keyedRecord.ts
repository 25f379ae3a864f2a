// A record keyed by the user's text (scenario keys, model labels, criterion keys). A plain `{}`
// gives some keys a meaning of its own: assigning `__proto__` sets the object's prototype instead
// of adding an entry, and `for...in` then walks whatever that prototype holds. An object with no
// prototype treats every key as an ordinary own property, and JSON.stringify writes it the same.

/** An empty record with no prototype, so every key the user names is an own entry. */
export function keyedRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
