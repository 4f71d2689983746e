package redact

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/tokenize"
)

// honeRules are the formats that gitleaks' rules leave to other tools, or
// catch only with high entropy: a password in a URL or in a connection
// string, a bearer token written out, a value assigned to a password or
// secret name (quoted anywhere, unquoted in a config or env file's line),
// the default value of an environment lookup, and two vendors' keys that
// gitleaks wants a word's boundary before (an AWS key id in
// DEPLOY_AKIA..., joined by "_") or a length an OpenAI project key need
// not have.
func honeRules() []rule {
	return []rule{
		withMaybe(reRule("url-password", urlPassword, func(m []string) bool { return !placeholder(m[1]) }, "://"), mayURLUser),
		withMaybe(reRule("url-token", urlToken, func(m []string) bool { return shannon(m[1]) > 3.5 && !placeholder(m[1]) }, "://"), mayURLUser),
		withMaybe(reRule("assigned-secret", quotedSecret, quotedIsSecret, secretKeywords...), mayAssignQuoted),
		withMaybe(reRule("assigned-secret", bareSecret, bareIsSecret, secretKeywords...), mayAssignBare),
		// No prefilter: a configuration file's value may hold what a bare
		// one may not (Sum,mer24, Hunter 22), and the rule runs on
		// configuration files' lines alone.
		inConfig(reRule("assigned-secret", configSecret, configIsSecret, secretKeywords...)),
		reRule("connection-password", dsnPassword, func(m []string) bool { return !placeholder(m[1]) && !typeWords[strings.ToLower(m[1])] }, "password=", "passwd=", "pwd="),
		reRule("connection-password", tcpPassword, func(m []string) bool { return !placeholder(m[1]) }, "@tcp(", "@unix("),
		reRule("bearer-token", bearerToken, func(m []string) bool {
			return shannon(m[1]) > 3.5 && strings.ContainsAny(m[1], "0123456789") && strings.IndexFunc(m[1], isLetter) >= 0
		}, "bearer"),
		{id: "aws-access-token", match: matchAWSKeyID, keywords: []string{"akia", "asia", "abia", "acca", "a3t"}},
		reRule("openai-api-key", openAIKey, func(m []string) bool {
			// A key's random part, not a name in kebab case
			// (sk-admin-dashboard-deployment).
			k := m[1][strings.IndexByte(m[1][3:], '-')+4:]
			return shannon(k) > 4 && strings.ContainsAny(k, "0123456789") && strings.ContainsAny(k, upper) && strings.ContainsAny(k, lower)
		}, "sk-proj-", "sk-svcacct-", "sk-admin-"),
		reRule("env-default", envDefault, func(m []string) bool { return !placeholder(m[2]) }, "getenv", "environ", "env"),
		reRule("env-default", jsEnvDefault, func(m []string) bool { return !placeholder(m[2]) }, "process.env"),
	}
}

// secretName is a name that says its value is a secret.
// A bare "pass" counts as a part of its own (DB_PASS, smtp.pass), not
// inside a word (bypass, compass); "key-data" is a kubeconfig's key.
const secretName = `(?:[\w.-]*(?:passw(?:or)?d|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|key[_-]data|credentials?)[\w.-]*|(?:[\w.-]*[_.-])?pass(?:[_.-][\w.-]*)?)`

var secretKeywords = []string{"pass", "pwd", "secret", "token", "key", "credential"}

var (
	urlPassword = lazyre.New(`(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@'"<>]{0,128}:([^\s@/'"<>]{1,256})@[\w\[.-]`)
	urlToken    = lazyre.New(`(?i)\b[a-z][a-z0-9+.-]{1,20}://([\w~.-]{16,256})@[\w\[.-]`)
	// name = "value", "name": "value", name: 'value', NAME := `value`
	quotedSecret = lazyre.New(`(?i)(` + secretName + `)["']?[ \t]*(?::=|=>|\?=|[=:])[ \t]*(?:[rbuf]{0,2})["'` + "`" + `]([^"'` + "`" + `\n\\]{4,512})["'` + "`" + `]`)
	// A config or env line: NAME=value, export NAME=value, name: value.
	bareSecret = lazyre.New(`(?im)^[ \t]*(export[ \t]+|-[ \t]+)?(` + secretName + `)[ \t]*(=|:)[ \t]*([^\s"'` + "`" + `#;,][^\s#;,]{3,511})[ \t]*(?:[#;].*)?\r?$`)
	// A configuration file's line: its value runs to the line's end, save a
	// comment after a space (# or ;): a comma, a # or a space inside it is
	// its own (Hunt#er22, Sum,mer24, Hunter 22).
	configSecret = lazyre.New(`(?im)^[ \t]*()(` + secretName + `)[ \t]*(=|:)[ \t]*([^\s"'` + "`" + `][^\r\n]{0,511}?)(?:[ \t]+[#;][^\r\n]*)?[ \t]*\r?$`)
	// A connection string's password, after another of its parts: a URL's
	// query (?user=app&password=x), ADO.NET's (Server=db;Password=x;),
	// libpq's (host=db user=app password=x).
	dsnPassword = lazyre.New(`(?i)(?:[?&;]|\b(?:user|username|uid|host|server|dbname|database|port|sslmode)=[^\s"'&;,()]*[ \t]+)(?:password|passwd|pwd)=([^&;\s"'\\(),]{4,256})`)
	// Go's MySQL DSN: user:password@tcp(host:3306)/db.
	tcpPassword = lazyre.New(`[\w.-]{1,64}:([^\s:@/'"<>]{1,256})@(?:tcp|unix)\(`)
	// A bearer token written out: "Authorization: Bearer 9fKq2...".
	bearerToken = lazyre.New(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{20,512}=*)`)
	// An AWS access key id; matchAWSKeyID wants no letter or digit on
	// either side of it, where gitleaks' rule wants a word's boundary,
	// which "_" is not (AWS_KEY_AKIA...).
	awsKeyID = lazyre.New(`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}`)
	// An OpenAI key of a project, service account or admin: its prefix
	// is the vendor's own, whatever the length after it.
	openAIKey = lazyre.New(`(?:^|[^A-Za-z0-9])(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,512})`)
	// os.environ.get("API_KEY", "default"), getenv('TOKEN', 'x'), ENV.fetch("SECRET", "x")
	envDefault = lazyre.New(`(?i)\b(?:getenv|environ\.get|environ\.setdefault|env\.get|env\.fetch|env)\s*\(\s*["']([A-Z0-9_]*(?:KEY|SECRET|TOKEN|PASS|PWD|CREDENTIAL|AUTH)[A-Z0-9_]*)["']\s*,\s*(?:default\s*=\s*)?["']([^"'\n]{4,512})["']`)
	// process.env.API_KEY || "default"
	jsEnvDefault = lazyre.New(`(?i)process\.env\.(\w*(?:KEY|SECRET|TOKEN|PASS|PWD|CREDENTIAL|AUTH)\w*)\s*(?:\|\||\?\?)\s*["'` + "`" + `]([^"'` + "`" + `\n]{4,512})["'` + "`" + `]`)
)

const (
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower = "abcdefghijklmnopqrstuvwxyz"
)

// matchAWSKeyID finds AWS access key ids (awsKeyID) that no letter or
// digit touches, of gitleaks' entropy (3 bits a byte: not AKIAXXXX...,
// not a DNA primer) and not AWS's documented examples (...EXAMPLE). Two
// ids joined by "_" are two.
func matchAWSKeyID(text string, from, to int, emit func(start, end int)) {
	alnum := func(i int) bool {
		return i >= 0 && i < len(text) && (isLetter(rune(text[i])) || '0' <= text[i] && text[i] <= '9')
	}
	for _, m := range awsKeyID().FindAllStringIndex(text[from:to], -1) {
		s, e := from+m[0], from+m[1]
		if alnum(s-1) || alnum(e) || shannon(text[s:e]) <= 3 || strings.HasSuffix(text[s:e], "EXAMPLE") {
			continue
		}
		emit(s, e)
	}
}

// reRule makes a rule of a regular expression whose last group is the
// secret, kept where ok says so.
func reRule(id string, re func() *regexp.Regexp, ok func(groups []string) bool, keywords ...string) rule {
	return rule{id: id, match: func(text string, from, to int, emit func(start, end int)) {
		for _, m := range re().FindAllStringSubmatchIndex(text[from:to], -1) {
			groups := make([]string, len(m)/2)
			for g := range groups {
				if m[2*g] >= 0 {
					groups[g] = text[from+m[2*g] : from+m[2*g+1]]
				}
			}
			last := len(groups) - 1
			if groups[last] == "" || !ok(groups) {
				continue
			}
			emit(from+m[2*last], from+m[2*last+1])
		}
	}, keywords: keywords}
}

// mayURLUser is false when a text holds no "@" after its first "://":
// both URL rules need a user's part ended by one.
func mayURLUser(text string) bool {
	i := strings.Index(text, "://")
	return i >= 0 && strings.IndexByte(text[i:], '@') >= 0
}

// inConfig makes a rule hold only in configuration files (configFile).
func inConfig(rl rule) rule {
	rl.path = configFile
	return rl
}

// configExts are the extensions of configuration files whose lines are
// key = value, the value written out: INI, .properties, MySQL's .cnf, a
// service's .conf, TOML.
var configExts = map[string]bool{".ini": true, ".cfg": true, ".conf": true, ".cnf": true, ".properties": true, ".toml": true}

// configFile reports whether the slash path names a configuration file.
func configFile(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	return dot > 0 && configExts[strings.ToLower(base[dot:])]
}

func withMaybe(rl rule, maybe func(text string) bool) rule {
	rl.maybe = maybe
	return rl
}

// secretNameCores are the words secretName must hold, lower-cased: each
// of its alternatives.
var secretNameCores = [][]byte{
	[]byte("passwd"), []byte("password"), []byte("pwd"), []byte("passphrase"), []byte("secret"), []byte("token"),
	[]byte("apikey"), []byte("api_key"), []byte("api-key"), []byte("accesskey"), []byte("access_key"), []byte("access-key"),
	[]byte("privatekey"), []byte("private_key"), []byte("private-key"), []byte("authkey"), []byte("auth_key"), []byte("auth-key"),
	[]byte("credential"), []byte("pass"), []byte("key-data"), []byte("key_data"),
}

// mayAssignQuoted is false when quotedSecret cannot match a line: no
// secret name in it is followed, past the rest of the name, an optional
// quote and blanks, by an assignment, a quote, and 4 to 512 characters
// but quotes, newlines and backslashes, then a quote. A line with a
// character that (?i) folds into an ASCII letter is always tried.
func mayAssignQuoted(text string) bool { return mayAssign(text, true) }

// mayAssignBare is mayAssignQuoted for bareSecret: a secret name that
// starts its line, past blanks and an optional "export" or "-", followed,
// past the rest of the name and blanks, by = or :, blanks, and a value of
// 4 to 512 characters but blanks, "#", ";" and "," that does not start
// with a quote, which only blanks, a comment or the line's end follow.
func mayAssignBare(text string) bool { return mayAssign(text, false) }

func mayAssign(text string, quoted bool) bool {
	if foldsToASCII(text) {
		return true
	}
	lower := asciiLower(text)
	for _, core := range secretNameCores {
		for off := 0; off < len(lower); {
			k := bytes.Index(lower[off:], core)
			if k < 0 {
				break
			}
			if assignsAfter(lower, off+k, off+k+len(core), quoted) {
				return true
			}
			off += k + 1
		}
	}
	return false
}

// nameByte is a byte of [\w.-], lower-cased.
func nameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// blanksFrom is where the blanks from j end; blanksBefore where those
// before q start.
func blanksFrom(l []byte, j int) int {
	for j < len(l) && isBlank(l[j]) {
		j++
	}
	return j
}

func blanksBefore(l []byte, q int) int {
	for q > 0 && isBlank(l[q-1]) {
		q--
	}
	return q
}

// assignsAfter: see mayAssign; the secret name's core is l[start:j].
func assignsAfter(l []byte, start, j int, quoted bool) bool {
	for j < len(l) && nameByte(l[j]) {
		j++
	}
	if !quoted {
		return bareAssign(l, start, j)
	}
	if j < len(l) && (l[j] == '"' || l[j] == '\'') {
		j++
	}
	j = blanksFrom(l, j)
	for _, op := range []string{":=", "=>", "?=", "=", ":"} {
		if !bytes.HasPrefix(l[j:], []byte(op)) {
			continue
		}
		k := blanksFrom(l, j+len(op))
		for n := 0; n < 2 && k < len(l) && strings.IndexByte("rbuf", l[k]) >= 0; n++ {
			k++
		}
		if k < len(l) && (l[k] == '"' || l[k] == '\'' || l[k] == '`') && quotedValue(l, k+1) {
			return true
		}
	}
	return false
}

// quotedValue: from i, 4 to 512 characters but quotes, newlines and
// backslashes, then a quote; and none a blank, nor the value one that
// quotedIsSecret takes for a placeholder by its first bytes, which it
// would not keep. Characters are counted as the regexp package reads
// them: a byte of broken UTF-8 is one.
func quotedValue(l []byte, i int) bool {
	for n, j := 0, i; n <= 512 && j < len(l); n++ {
		switch l[j] {
		case '"', '\'', '`':
			return n >= 4 && strings.IndexByte("${<%[", l[i]) < 0
		case '\n', '\\', ' ', '\t':
			return false
		}
		_, size := utf8.DecodeRune(l[j:])
		j += size
	}
	return false
}

// foldsToASCII reports whether text holds a character that (?i) folds
// into an ASCII letter: the Kelvin sign (k) and the long s (s), the only
// two.
func foldsToASCII(text string) bool {
	return strings.ContainsRune(text, '\u212a') || strings.ContainsRune(text, '\u017f')
}

// bareAssign: see mayAssignBare; the name holding the core at start ends
// at j.
func bareAssign(l []byte, start, j int) bool {
	// The name starts its line.
	s := start
	for s > 0 && nameByte(l[s-1]) {
		s--
	}
	q := blanksBefore(l, s)
	if q < s {
		switch {
		case q >= 6 && string(l[q-6:q]) == "export":
			q -= 6
		case q >= 1 && l[q-1] == '-':
			q--
		}
		q = blanksBefore(l, q)
	}
	if q > 0 && l[q-1] != '\n' {
		return false
	}
	j = blanksFrom(l, j)
	if j == len(l) || l[j] != '=' && l[j] != ':' {
		return false
	}
	v := blanksFrom(l, j+1)
	e, n := v, 0
	for e < len(l) && strings.IndexByte(" \t\n\f\r#;,", l[e]) < 0 {
		_, size := utf8.DecodeRune(l[e:])
		e += size
		n++
	}
	if n < 4 || n > 512 || l[v] == '"' || l[v] == '\'' || l[v] == '`' {
		return false
	}
	e = blanksFrom(l, e)
	return e == len(l) || l[e] == '\n' || l[e] == '#' || l[e] == ';' || l[e] == '\r' && (e+1 == len(l) || l[e+1] == '\n')
}

// placeholder tells a reference, a template or an example from a value.
func placeholder(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < 4 {
		return true
	}
	switch v[0] {
	case '$', '{', '<', '%', '[':
		return true
	}
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "%s") || strings.Contains(v, "%(") {
		return true
	}
	same := true
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			same = false
			break
		}
	}
	return same // ****, xxxx
}

// typeWords are values that say a type or a constant, not a secret:
// "password: str", "token: string;", "secret = None".
var typeWords = map[string]bool{
	"str": true, "string": true, "int": true, "bool": true, "boolean": true, "number": true, "any": true,
	"none": true, "null": true, "nil": true, "true": true, "false": true, "undefined": true, "object": true,
	"bytes": true, "optional": true, "required": true, "secret": true, "password": true, "token": true,
	"char": true, "text": true, "varchar": true, "uuid": true, "unknown": true, "never": true, "void": true,
	"self": true, "this": true, "default": true, "empty": true, "redacted": true,
}

// nameLike: a value that is itself a field or setting name.
var nameLike = lazyre.New(`^[a-z][a-z_.-]*$`)

func looksLikeName(v string) bool {
	if !nameLike().MatchString(v) {
		return false
	}
	lv := strings.ToLower(v)
	return slices.ContainsFunc(secretNameWords, func(k string) bool { return strings.Contains(lv, k) })
}

// secretNameWords are the words that make a name a secret's: a value
// that holds one names a field (looksLikeName), and a word that begins
// with one is no word a name in code shares with its value (sharesWord).
var secretNameWords = []string{"pass", "pwd", "secret", "token", "key", "credential", "auth"}

// quotedIsSecret judges a quoted value assigned to a secret name.
func quotedIsSecret(m []string) bool {
	name, v := strings.ToLower(m[1]), m[2]
	if placeholder(v) || strings.ContainsAny(v, " \t") || typeWords[strings.ToLower(v)] || looksLikeName(v) {
		return false
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") {
		return false // a URL or a path; a URL's password has its own rule
	}
	if passwordName(name) {
		return true
	}
	// key and token names also name ordinary things (token_type =
	// "bearer", key = "name", header = "X-Auth-Token"): their value must
	// look random.
	return looksRandom(v)
}

// looksRandom: digits among letters, or long and mixed.
func looksRandom(v string) bool {
	digit := strings.ContainsAny(v, "0123456789")
	return len(v) >= 8 && digit && shannon(v) > 3.0 || len(v) >= 20 && shannon(v) > 3.5 && hasDigitOrMixed(v)
}

// bareIsSecret judges an unquoted value on a config or env line.
func bareIsSecret(m []string) bool {
	export, name, op, v := m[1], m[2], m[3], m[4]
	if placeholder(v) || typeWords[strings.ToLower(strings.TrimRight(v, ";,"))] || looksLikeName(v) {
		return false
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		return false
	}
	env := export != "" || op == "=" && name == strings.ToUpper(name) && !strings.ContainsAny(v, "()[]")
	if env {
		// A setting about a secret is no secret: TOKEN_TTL=3600,
		// PASSWORD_MAX_AGE=86400, DB_PASSWORD_FILE=/run/secrets/db.
		return !aboutSecret(strings.ToLower(name), v)
	}
	// A unary operator before an attribute is code too:
	// !!config.withCredentials, &cfg.Credentials; before a bare word it
	// may be a password's first character (password=!QAZ2wsx).
	if strings.ContainsAny(v, "()[]{}<>") || dotted().MatchString(strings.TrimLeft(v, "!~&*")) {
		return false // code: a call, an index, an attribute
	}
	if op == "=" && (v[0] == '*' || v[0] == '&') && (camelWords().MatchString(v[1:]) || snakeWords().MatchString(v[1:])) && sharesWord(name, v[1:]) {
		return false // a pointer's value or an address: cred_config = *authConfig, not password=*Welcome1
	}
	if op == "=" && ident().MatchString(v) && !(shannon(v) > 3.5 && hasDigitOrMixed(v)) {
		return false // password = password_input
	}
	if op == "=" && camelWords().MatchString(v) && sharesWord(name, v) {
		return false // reset_password_form = AccountPasswordResetForm, not smtp_pass = BlueSkyMorning
	}
	if passwordName(strings.ToLower(name)) {
		return true
	}
	return looksRandom(v)
}

// configIsSecret judges an unquoted value on a configuration file's line,
// where a value is never code: a password's value is hidden whatever it
// looks like (password = Hunter22), which bareIsSecret takes for a name
// in source code.
func configIsSecret(m []string) bool {
	name, v := strings.ToLower(m[2]), m[4]
	lv := strings.ToLower(v)
	if placeholder(v) || typeWords[lv] && !weakPasswords[lv] || aboutSecret(name, v) {
		return false // password_min_length = 8, password.hasher = bcrypt
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		return false
	}
	if passwordName(name) {
		return true
	}
	return looksRandom(v)
}

// configValues are the values of settings about a secret, not of one:
// switches, modes, hashes, where it is kept (password_auth = enabled,
// credentials = environment, password.hasher = bcrypt).
var configValues = map[string]bool{
	"enabled": true, "disabled": true, "enable": true, "disable": true, "on": true, "off": true, "yes": true,
	"no": true, "strict": true, "lax": true, "required": true, "optional": true, "environment": true,
	"env": true, "vault": true, "file": true, "files": true, "plain": true, "plaintext": true, "bcrypt": true,
	"argon2": true, "argon2id": true, "argon2i": true, "scrypt": true, "pbkdf2": true, "sha1": true, "sha256": true,
	"sha512": true, "md5": true, "hash": true, "hashed": true, "auto": true, "always": true, "never": true,
	"prompt": true, "keyring": true, "keychain": true, "ldap": true, "oauth": true, "oauth2": true, "basic": true,
	"digest": true, "kerberos": true, "native": true, "memory": true, "database": true, "db": true,
}

// weakPasswords are type words that a configuration file may well hold as
// a password: password = secret.
var weakPasswords = map[string]bool{"secret": true, "password": true, "token": true}

// constantCase: a value in capitals and underscores, a setting's
// constant (validate-password=FORCE_PLUS_PERMANENT).
var constantCase = lazyre.New(`^[A-Z]+(?:_[A-Z]+)+$`)

// settingWords end the names of settings about a secret, not of the
// secret: its length, its lifetime, how it is hashed, where it is kept.
var settingWords = map[string]bool{
	"scheme": true, "auth": true, "provider": true, "encryption": true, "encoder": true, "store": true,
	"storage": true, "source": true, "backend": true, "validation": true, "validator": true, "reset": true,
	"rotation": true, "complexity": true, "history": true, "lockout": true, "plugin": true,
	"length": true, "len": true, "min": true, "max": true, "age": true, "days": true, "expiry": true,
	"expires": true, "expire": true, "timeout": true, "ttl": true, "lifetime": true, "size": true,
	"count": true, "attempts": true, "retries": true, "policy": true, "hash": true, "hasher": true,
	"hashers": true, "algorithm": true, "algo": true, "rounds": true, "iterations": true, "file": true,
	"path": true, "dir": true, "command": true, "cmd": true, "prompt": true, "enabled": true,
	"enable": true, "required": true, "mode": true, "type": true, "format": true, "field": true,
	"header": true, "name": true, "url": true, "uri": true, "endpoint": true, "strength": true,
}

// aboutSecret reports whether name (lower-cased) = v sets something about
// a secret rather than the secret: by the setting's name
// (password_min_length, token.ttl) or its value (enabled, bcrypt,
// FORCE_PLUS_PERMANENT), with a value that does not look random, so that
// a token under a setting's name (AUTH_HEADER=…, REGISTRY_AUTH=…) is
// still hidden.
func aboutSecret(name, v string) bool {
	return (settingName(name) || configValues[strings.ToLower(v)] || constantCase().MatchString(v)) && !looksRandom(v)
}

// settingName reports whether a lower-cased name's last word is a
// setting's (settingWords): password_min_length, token.ttl.
func settingName(name string) bool {
	last := name[strings.LastIndexAny(name, "._-")+1:]
	return settingWords[last]
}

var (
	dotted = lazyre.New(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$`)
	ident  = lazyre.New(`^[A-Za-z_]\w*$`)
	// A name of words in camel case (AccountPasswordResetForm,
	// getUserToken, HTTPBasicAuth), each of two lower-case letters or
	// more after its capitals: a class or a function, where a random
	// password's letters change case more often (XkQpTzLm).
	camelWords = lazyre.New(`^(?:[a-z]{2,}|[A-Z]+[a-z]{2,})(?:[A-Z]+[a-z]{2,})+$`)
	// A name of words in snake case: auth_config, secret_value.
	snakeWords = lazyre.New(`^[a-z]{2,}(?:_[a-z]{2,})+$`)
)

// sharesWord reports whether a name and a value in words share one that
// is not a secret's (password, token, key, auth...): a name in code
// assigned to a name (reset_password_form = AccountPasswordResetForm,
// cred_config = *authConfig) most often shares what it names, a password
// of words (CorrectHorseBattery, SuperSecretPassword) nothing but the
// secret's word.
// The words are an identifier's parts as the index reads them
// (tokenize.Each: HTTPBasicAuth is http, basic, auth).
func sharesWord(name, value string) bool {
	own := map[string]bool{}
	tokenize.Each(name, func(t tokenize.Token) {
		if !t.Whole {
			own[t.Text] = true
		}
	})
	shared := false
	tokenize.Each(value, func(t tokenize.Token) {
		shared = shared || !t.Whole && own[t.Text] && !secretWord(t.Text)
	})
	return shared
}

// secretWord reports whether a word names a secret or its kind.
func secretWord(w string) bool {
	return strings.HasPrefix(w, "private") || slices.ContainsFunc(secretNameWords, func(k string) bool { return strings.HasPrefix(w, k) })
}

func passwordName(name string) bool {
	for _, k := range []string{"pass", "pwd", "secret", "credential", "private"} {
		if strings.Contains(name, k) {
			return true
		}
	}
	return false
}

func hasDigitOrMixed(v string) bool {
	var digit, upper, lower bool
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		}
	}
	return digit || upper && lower
}

// isLetter reports whether r is an ASCII letter.
func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }
