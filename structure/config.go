package structure

import (
	"regexp"
	"strings"

	"github.com/hone-tools/hone/internal/lazyre"
)

// maxConfigKeys caps the keys read from one configuration file.
const maxConfigKeys = 2000

var (
	// yamlKey is a mapping key, in a list item or not: "  max_fail: 3",
	// "- name: x". Quoted keys are read without their quotes.
	yamlKey = lazyre.New(`^\s*(?:-\s+)?["']?([A-Za-z_][\w.-]*)["']?\s*:(?:\s|$)`)
	// assignKey is a key of TOML, INI or Java properties: "max_fail = 3",
	// "server.port: 8080".
	assignKey = lazyre.New(`^\s*["']?([A-Za-z_][\w.-]*)["']?\s*[=:]`)
	// tableKey is a TOML table or INI section: "[tool.pytest]", "[[bin]]".
	tableKey = lazyre.New(`^\s*\[\[?\s*([A-Za-z_][\w.-]*)\s*\]\]?\s*(?:[#;].*)?$`)
)

// ConfigKeys returns the keys that a configuration file (YAML, TOML, INI
// or Java properties) sets, with their lines, as definitions of kind
// "key": the comment above a key, or after it on its line, documents it
// as a doc comment documents a function. Files of other languages have
// none.
func ConfigKeys(lang string, src []byte) []Def {
	var keyRe []*regexp.Regexp
	switch lang {
	case "yaml":
		keyRe = []*regexp.Regexp{yamlKey()}
	case "toml", "ini", "properties":
		keyRe = []*regexp.Regexp{tableKey(), assignKey()}
	default:
		return nil
	}
	var keys []Def
	for i, line := range splitLines(src) {
		if len(line) > 400 {
			continue
		}
		trim := strings.TrimSpace(line)
		if trim == "" || trim[0] == '#' || trim[0] == ';' || trim[0] == '!' {
			continue
		}
		for _, re := range keyRe {
			if m := re.FindStringSubmatch(line); m != nil {
				keys = append(keys, Def{Name: m[1], Kind: "key", Line: i + 1, EndLine: i + 1})
				break
			}
		}
		if len(keys) == maxConfigKeys {
			break
		}
	}
	return keys
}
