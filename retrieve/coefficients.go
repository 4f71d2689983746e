package retrieve

// Coefficients set by hand, beside the fitted ranking model
// (internal/rankmodel/model.json): each is named where it is used, and
// those of the stages' searches are gathered here.

// Dispatch.
const (
	// searchLead: the share, in percent, of a cycle's candidates taken
	// from the keyword search before the neighbours of the best files.
	searchLead = 40
	// gapSearchFiles: files a concept gap's own search dispatches.
	gapSearchFiles = 3
	// patternBoost weighs up a search hit where the relevant files live.
	patternBoost = 1.3
	// identifierBoost weighs up an identifier searched as written.
	identifierBoost = 1.5
	// gapLearnedShare: what the learned terms count for in a concept
	// gap's search, against the keyword search.
	gapLearnedShare = 0.5
	// hopDefiners: a call leads to its definers when at most this many
	// files define the name; hopNameLen: a definition's users are
	// searched for when its name is this long; hopUsers: users per name.
	hopDefiners = 2
	hopNameLen  = 8
	hopUsers    = 3
	// testSubjectFiles: a test named for a file points at it when at most
	// this many files have that name.
	testSubjectFiles = 3
	// probeShare: the share, in percent, of a cycle's candidates that the
	// words refine learned take, each with its own search of probeFiles
	// files not evaluated yet.
	probeShare = 20
	probeFiles = 2
)

// Evaluation.
const (
	// callerDefiners: a call ties a file to the relevant one defining the
	// name when at most this many files define it.
	callerDefiners = 3
)

// Refine.
const (
	// feedbackSeeds: with nothing relevant yet, the best files at or above
	// feedbackFloor that feedback reads.
	feedbackSeeds = 3
	// coveredFloor: a relevant file covers a concept whose evidence in it
	// reaches this; conceptGapShare: concepts at this share of the top
	// concept's weight or more become gaps when none covers them.
	coveredFloor    = 0.5
	conceptGapShare = 0.6
	// synonymReplaces: a synonym stands for the task's word when the
	// codebase says it this many times as often.
	synonymReplaces = 2
	// synonymSearch: files searched for a synonym's home;
	// synonymHomeFiles: homes taken at most.
	synonymSearch    = 10
	synonymHomeFiles = 3
	// vocabAssoc: the thesaurus's association a term needs to stand for a
	// task word; vocabTerms: such terms taken a run; vocabMaxFiles: the
	// share of the files a term may be in; vocabDiscount: what its match
	// counts for against the task's own word, times its association.
	vocabAssoc    = 0.4
	vocabTerms    = 4
	vocabMaxFiles = 0.05
	vocabDiscount = 0.7
	// vocabPerWord, vocabPerTask: the general vocabulary's terms taken
	// for one task word, and for the task; vocabMinWeight: the weight a
	// term needs.
	vocabPerWord   = 3
	vocabPerTask   = 10
	vocabMinWeight = 0.12
	// vocabTermDiscount: what a general vocabulary term's match counts for
	// against the task's own word.
	vocabTermDiscount = 0.5
)

// The ranking's widening: the files it weighs beside those the cycles
// evaluated.
const (
	// searchDepth is how deep the first cycle's search is kept for the
	// ranking; widenSearch how many of it are evaluated for it.
	searchDepth = 300
	widenSearch = 60
	// widenDefiners: the files defining an identifier the task names are
	// evaluated when at most this many define it.
	widenDefiners = 5
	// widenTitle: the best files for the task's first line alone.
	widenTitle = 15
	// widenTested: the files the best-matching tests exercise.
	widenTested = 8
	// testsSearched: the tests that best match the task, whose imports
	// point at the code under test.
	testsSearched = 5
)

// irrelevantMost is the most relevance a file has whose every verdict
// called it irrelevant (a score under hone.ExcludeBelow), with no model's
// verdict on it: the top of the tangential band. Files so judged stood at
// 0.2 or more in 19 of 6,444 ranked on five sets' runs (2026-12-07), 4
// of them needed, and at 0.7 or more in none; a one-word task whose word
// one file holds in passing ("improve performance") had put such a file
// at 0.87, a target.
const irrelevantMost = 0.5

// Neighbour expansion: the best files so far, and how many neighbours of
// each are dispatched.
const (
	hopFiles      = 3
	hopNeighbours = 4
	hopFloor      = 0.5 // a file must be at least related to be expanded
)

// History: how many past commits like the task the history signal reads;
// how many a result lists, more when the task names more (shownNamed at
// most), and the relevance a commit's best file needs for it to be
// listed when the task does not name it (tangential at least); and how
// many of each one's files.
const (
	historyMatches = 10
	shownCommits   = 3
	shownNamed     = 5
	commitFloor    = 0.2
	maxCommitFiles = 10
)

// The task's concepts: how much each weighs. A concept's weight is its
// kind's base, times its specificity in the repository (its IDF against
// a word in one file, from specificityFloor up), times a bonus for each
// repetition in the task.
const (
	weightProse       = 0.8 // identifiers and paths in the repository weigh 1
	weightOutsidePath = 0.5 // a path outside the repository: a library's, the interpreter's
	specificityFloor  = 0.35
	repeatBonus       = 0.15 // times the log of the mentions
	absentShare       = 0.5  // no file says it (yet)
	commonFiles       = 0.5  // a concept in more than this share of the files ...
	commonShare       = 0.5  // ... counts this share of its weight
	// splitDiscount: an identifier's parts, against the identifier whole;
	// translationDiscount: a glossary's further translations of a word.
	splitDiscount       = 0.75
	translationDiscount = 0.9
)

// Feedback: the terms refine learns from the relevant files' lines.
const (
	// feedbackSaturation: a term's count on the task's lines in one file
	// saturates at about this many.
	feedbackSaturation = 2
	// strongTermBoost: a term in a file's name, folders or definitions.
	strongTermBoost = 1.5
	// A term in more than learnedMaxFiles of the files, or in a
	// repository of largeRepository files or more, learnedMaxFilesLarge,
	// finds nothing new.
	learnedMaxFiles      = 0.5
	learnedMaxFilesLarge = 0.25
	largeRepository      = 20
	// learnedKeepShare: terms under this share of the best term's score
	// are not learned; learnedWeightFloor is the weight of the weakest
	// learned, the best weighing 1.
	learnedKeepShare   = 0.35
	learnedWeightFloor = 0.5
)
