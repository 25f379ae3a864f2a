// The descriptions of the paging arguments, one wording for every list. Two kinds of list: those
// the read models page in SQL (apps/projector/readModels/paging.ts pageSize: default 20, at most
// 100) and those read whole then paged (listPage: the rest of the list unless `first` is given).

/** `first` of a list the read models page: evaluations, runs, agents, releases. */
export const PAGE_FIRST = "How many to answer: a whole number from 0 to 100, default 20; another is VALIDATION.";

/** `first` of a list read whole then paged: catalogs, scenarios, results, matrix rows, fix items. */
export const WHOLE_LIST_FIRST = "How many to answer, a whole number from 0 (a negative one is VALIDATION); omitted, the rest of the list.";

/** `after` of every list. */
export const PAGE_AFTER =
  "The endCursor of the page before, from this list (same parent, same filters); omitted, the list's start. A cursor this list did not give out is VALIDATION.";
