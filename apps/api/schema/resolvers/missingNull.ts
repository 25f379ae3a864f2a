// How a nullable query field's schema description says what its null means. The fields that
// read one record by its id or key, and the lists paged with `first`, are nullable: one missing
// id (or a bad `first`) answers null at its path beside the rest of the query, where a non-null
// field's error nulled its parent (the whole `data` for a root field).

/** Said by every query field that is null only when refused. */
export const MISSING_NULL = "Null, with the error (its code and field) at its path, when refused: the rest of the query still answers.";
