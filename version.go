package hone

// Version is the version of hone: the binary and this library.
const Version = "0.1.0"

// JSONVersion is the version of the JSON output: Result and everything in
// it, as `hone retrieve --json` and MCP's retrieve_context give it. Within
// a version, fields are only ever added; a field renamed, removed or
// given another meaning makes a new version. Its changelog:
//
//	4  (2026-12-02) a model evaluator joins the lexical one rather than
//	   replacing it: with one, a cycle's evaluated score and a file's
//	   relevance join the lexical evidence with the model's verdict
//	   (hone.JoinScores), which model_score gives on its own, in
//	   evaluated and files; evaluated[].terms, the codebase's words a
//	   model named; cycles[].model_usage and evaluator, what the model
//	   spent. Without a model, nothing changes from 3. Added since:
//	   language, the repository's main language, which picks the
//	   ranking model's weight set; timings_ms, where elapsed_ms went:
//	   update (the index's update before the loop), task, cycles (one
//	   each), rank, and history (how long of that the run waited for
//	   the git history), in milliseconds; cycles[].evaluated[].relevance,
//	   each evaluated file's relevance in the result, on the result's
//	   scale, beside score, the evaluator's (2026-12-05). files[].spans
//	   is [] when a file has none, as its other lists are, no longer left
//	   out; a file the ranking places at the threshold by its history (a
//	   changelog, an options' document) is among files (2026-12-06).
//	3  (2026-12-01) one relevance: a file's relevance, in files and
//	   ranking, is the probability that the task needs it, judged for
//	   each file on its own and calibrated (several can be high), no
//	   longer a share of one probability split over the files. files are
//	   those whose relevance reaches the threshold, best first (or, when
//	   none does, the best few, with a notice), each with role "target",
//	   "context" or "test", and score, the evaluator's best verdict. A
//	   cycle's evaluated files give the evaluator's verdict as score; the
//	   name relevance is the result's alone. Added since:
//	   past_commits[].relevance, on the files' scale (a commit like the
//	   task is listed only when a file it changed is at 0.2 or more).
//	2  (2026-12-01) json_version itself; a cycle's query gains terms (the
//	   weighted search terms that ran), gaps (the open gaps it aimed at)
//	   and expand (the files whose neighbours it searched); focus_areas
//	   name every open gap the cycle aimed at, not only those the cycle
//	   before found; concepts and cycles are [] rather than null when the
//	   task has nothing to search for; a query's named (the files the
//	   task names, dispatched first) and probes (the words learned in the
//	   cycle before, each searched on its own); ranking[].signals, written only on
//	   request, lose cover, about, learned and link, so that every signal
//	   from near on moves four places (retrieve.SignalNames names them).
//	1  (2026-11-29 to 2026-12-01) the first output, unversioned: task,
//	   repo, concepts, files (with role, spans, missing_context), ranking,
//	   related_tests, past_commits, cycles, stop_reason, notice,
//	   threshold, elapsed_ms, redacted.
const JSONVersion = 4
