// Package toolsearch ranks tool definitions by how well they answer what
// a person or a model asks for: the ranker behind toolreg's SearchTools,
// the bridge's search_tools host tool and `mcpc tools --search`.
//
// A tool is a [Doc] of weighted fields: its own name split into words
// (on `_`, `-`, `.`, camelCase and digits), its title, its description,
// its argument names and their descriptions, and its server's name.
// Words are lower-cased, stopwords dropped and stemmed lightly (plurals,
// -ing, -ed, -er, -ion, the -ise spelling); phrases and phrasal verbs
// stand for their action (get rid of, take Sam off), and a request does
// not ask for the word a negation governs. A query word also matches its
// synonyms from tables of the verbs and nouns of tool use, by domain
// (fetch finds get, folder finds directory) at a lower weight than
// itself, and the name words it is a prefix of. Scores are BM25F: each
// field's term frequency normalized by the field's length, weighted, and
// saturated once per query word; the tools of a server the query names
// gain, and the best hits are reranked by how much of their name the
// query asks for.
//
// An [Index] holds one segment per server, so a server whose listing
// changes is indexed again alone. It is not safe for concurrent use.
package toolsearch
