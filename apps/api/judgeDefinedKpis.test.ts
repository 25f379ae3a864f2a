// Judge-defined KPIs on the embedded default (memory event store, PGlite read models, in-process
// bus): the cases in testing/judgeDefinedKpiCases.ts.
import { judgeDefinedKpiCases } from "./testing/judgeDefinedKpiCases.js";

judgeDefinedKpiCases();
