package toolsearch

import "strings"

// concepts are groups of words that name the same thing or action in a
// request for a tool: a query word also finds the other words of its
// groups, at synonymWeight. They are the verbs and nouns of tool use, by
// hand; a word may be in several groups.
var concepts = []string{
	// actions
	"get fetch read retrieve show view load display obtain return open see inspect describe detail info information grab",
	"list enumerate browse all ls overview show get exist",
	"multiple several many batch bulk",
	"create add new make insert generate post open start spin provision",
	"delete remove erase drop destroy purge trash clear unlink discard wipe nuke withdraw",
	"update edit modify change patch set alter rename replace adjust",
	"search find query lookup look locate grep discover filter match hunt seek",
	"send post message notify publish dm tell reply ping forward share",
	"run execute invoke exec launch trigger perform call start kick activate",
	"write save store put persist record",
	"download export save fetch",
	"upload import attach",
	"close stop kill terminate end cancel quit abort exit enough halt cease discontinue shut",
	"navigate goto go visit open browse",
	"click press tap select",
	"type fill enter input form",
	"wait sleep pause delay",
	"evaluate eval javascript script js",
	"move transfer relocate rename shift drag",
	"copy duplicate clone fork replicate",
	"count total number how many",
	"summarize summary overview digest",
	"translate translation",
	"compare diff difference",
	"analyze analysis analyse analytic insight examine study",
	"schedule book plan reserve",
	"assign assignee owner give delegate allot reassign",
	"who whoami viewer self identity current",
	"usage stats statistics storage size space quota used",
	"merge combine unify unite fuse",
	"approve review approval okay sanction",
	"deploy deployment release ship publish rollout",
	"monitor watch observe track",
	"subscribe follow watch",
	"resize scale",
	"think thought reason reasoning reflect step",
	"remember memory memorize recall knowledge note fact observation",
	"archive backup snapshot",
	// nouns
	"file document doc attachment page",
	"directory folder dir",
	"path location",
	"issue ticket bug task story incident report",
	"pr pull merge",
	"repo repository project codebase",
	"user person people member account profile someone who whoami me",
	"team group organization org workspace",
	"image picture photo screenshot icon",
	"screenshot capture snapshot",
	"web url page website browser site link webpage internet online http article visit",
	"calendar event meeting appointment schedule invite",
	"availability free busy slot",
	"email mail gmail inbox message",
	"db database table sql schema",
	"spreadsheet sheet excel csv table workbook",
	"todo task reminder checklist",
	"song music track playlist album artist",
	"vm instance server machine host node",
	"bucket storage blob object",
	"config configuration setting option preference",
	"alert alarm incident outage oncall",
	"dashboard panel chart widget",
	"time clock date timezone now today",
	"convert transform format",
	"zip compress archive",
	"restart reboot reload",
	"undo revert rollback reset restore recover",
	"validate verify lint check test",
	"fix repair resolve",
	"invite share add",
	"row record entry item",
	"comment reply note feedback respond remark",
	"branch ref",
	"commit change revision",
	"code source",
	"log logs logging trace tail",
	"error exception failure crash problem",
	"metric metrics stat statistics analytic measurement",
	"price cost billing invoice payment charge",
	"customer client buyer contact crm",
	"deal opportunity sale",
	"order purchase checkout cart",
	"product item sku inventory stock",
	"refund return",
	"subscription plan",
	"weather forecast temperature",
	"map location place address geocode direction route distance drive travel far",
	"elevation altitude height high",
	"diff change difference compare",
	"transcript caption subtitle",
	"video youtube clip",
	"secret credential key token password",
	"permission access role",
	"job pipeline workflow build",
	"tab window",
	"element selector node",
	"console terminal shell command process",
	"network request traffic",
	"chart graph plot visualize diagram",
	"channel room conversation thread chat",
	"label tag category",
	"status state progress health report update pass done ready",
	"history activity timeline event recent happen earlier past older version revision",
	"documentation docs library manual reference guide api",
	"star favorite favourite bookmark starred",
	"contact phone sms text",
	"container pod docker kubernetes cluster k8s",
	"dns domain zone",
	"worker function lambda serverless",
	"certificate cert ssl tls",
	"transcribe transcript caption subtitle",
	"speech voice audio sound",
	"news headline",
	"tweet twitter",
	"follower follow subscriber",
	"react reaction emoji upvote",
	"due deadline",
	"epic story feature",
	"wiki knowledge page doc",
	"vector embedding similarity semantic",
	"draft compose",
	"entity relation observation node",
	"collection index table",
	"column list lane",
	"switch checkout",
	"stash shelve aside",
	"paper article research literature academic scientific",
	"process program app application",
	"sprint cycle iteration",
	"priority urgent importance",
	"notification alert inbox unread",
	"photo picture image",
	"ride workout activity exercise",
}

// phrases are word pairs that stand for one concept word.
var phrases = map[[2]string]string{}

// separable are the concept words of phrases whose words may stand
// apart, a verb and its particle with the object between: "throw my
// changes away".
var separable = map[string]bool{}

// synonyms maps a stemmed word to the other stemmed words of its groups.
var synonyms = map[string][]string{}

func init() {
	for _, g := range append(concepts, domainConcepts...) {
		var stems []string
		for _, w := range strings.Fields(g) {
			stems = append(stems, stem(w))
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !contains(synonyms[s], o) {
					synonyms[s] = append(synonyms[s], o)
				}
			}
		}
	}
	for _, p := range [][3]string{
		{"pull", "request", "pr"}, {"merge", "request", "pr"}, {"change", "request", "pr"},
		{"web", "page", "webpage"}, {"web", "site", "website"},
		{"e", "mail", "email"}, {"data", "base", "db"},
		{"screen", "shot", "screenshot"}, {"get", "rid", "delete"},
		// phrasal verbs and goals that stand for an action
		{"look", "up", "search"}, {"throw", "away", "delete"}, {"tear", "down", "delete"},
		{"hand", "over", "assign"}, {"sign", "off", "approve"}, {"shut", "down", "stop"},
		{"log", "out", "logout"}, {"sign", "out", "logout"}, {"roll", "back", "rollback"},
		{"back", "up", "backup"}, {"write", "down", "note"}, {"drop", "down", "select"},
		{"go", "back", "back"}, {"spin", "up", "create"}, {"set", "up", "setup"},
		{"keep", "track", "monitor"}, {"keep", "posted", "subscribe"}, {"turn", "off", "disable"},
		{"pull", "up", "open"}, {"add", "up", "sum"}, {"over", "time", "history"},
		{"version", "control", "git"}, {"take", "off", "remove"}, {"kick", "out", "remove"},
		{"put", "away", "archive"}, {"keep", "eye", "monitor"}, {"line", "development", "branch"},
		{"line", "work", "branch"}, {"file", "away", "archive"}, {"call", "off", "cancel"},
		{"pull", "out", "extract"}, {"turn", "back", "revert"}, {"break", "down", "analyze"},
		{"go", "over", "review"}, {"set", "off", "trigger"},
		{"file", "bug", "create"}, {"file", "ticket", "create"}, {"file", "issue", "create"}, {"file", "report", "create"},
	} {
		phrases[[2]string{stem(p[0]), stem(p[1])}] = stem(p[2])
	}
	for _, w := range strings.Fields("delete assign approve remove archive logout rollback") {
		separable[stem(w)] = true
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
