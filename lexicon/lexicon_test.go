package lexicon

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSynonyms(t *testing.T) {
	tests := []struct {
		term    string
		want    []string // must be included
		notWant []string
	}{
		{"rate limit", []string{"throttle", "quota", "ratelimit", "rate limiter"}, []string{"rate limit"}},
		{"throttle", []string{"rate limit", "debounce"}, nil},
		{"authentication", []string{"auth", "login", "authenticate", "credential"}, []string{"authentication"}},
		{"auth", []string{"authentication", "authorization"}, nil},
		{"permission", []string{"authorization", "acl", "role"}, nil},
		{"session", []string{"login"}, nil},
		{"delete", []string{"remove", "destroy", "erase", "purge"}, nil},
		{"cache", []string{"memoize"}, nil},
		{"retry", []string{"backoff"}, nil},
		{"config", []string{"configuration", "settings", "options"}, nil},
		{"expiry", []string{"expire", "expiration", "expired", "ttl"}, nil},
		{"token", []string{"jwt"}, nil},
		{"error", []string{"exception", "failure"}, nil},
		{"endpoint", []string{"route", "api"}, []string{"router"}},
		{"log", []string{"logger", "logging"}, nil},
		{"db", []string{"database"}, nil},
		{"marshal", []string{"serialize", "encode"}, nil},
		{"unmarshal", []string{"deserialize", "decode"}, nil},
		{"mutex", []string{"lock", "semaphore"}, nil},
		{"websocket", []string{"ws", "realtime"}, nil},
		// normalisation of the query
		{"Rate-Limit", []string{"throttle"}, []string{"rate limit"}},
		{"  rate_limit ", []string{"throttle"}, nil},
	}
	for _, tt := range tests {
		got := Synonyms(tt.term)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Synonyms(%q) = %v, missing %q", tt.term, got, w)
			}
		}
		for _, w := range tt.notWant {
			if slices.Contains(got, w) {
				t.Errorf("Synonyms(%q) = %v, should not contain %q", tt.term, got, w)
			}
		}
	}
	for _, term := range []string{"", "zzyzx", "the", "rate  limit x"} {
		if got := Synonyms(term); got != nil {
			t.Errorf("Synonyms(%q) = %v, want nil", term, got)
		}
	}
}

func TestSynonymsSymmetric(t *testing.T) {
	for a, syn := range tables().synonyms {
		if slices.Contains(syn, a) {
			t.Errorf("Synonyms(%q) contains itself", a)
		}
		for _, b := range syn {
			if !slices.Contains(Synonyms(b), a) {
				t.Errorf("%q ~ %q but not the reverse", a, b)
			}
		}
		if len(syn) > 40 {
			t.Errorf("Synonyms(%q) has %d terms; keep groups small", a, len(syn))
		}
	}
}

func TestSynonymsCallerOwnsSlice(t *testing.T) {
	s := Synonyms("cache")
	s[0] = "mutated"
	if Synonyms("cache")[0] == "mutated" {
		t.Fatal("Synonyms returned shared storage")
	}
}

func TestGroupsWellFormed(t *testing.T) {
	groups := 0
	for line := range strings.Lines(synonymData) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		groups++
		seen := map[string]bool{}
		members := strings.Split(strings.TrimSuffix(line, "\n"), ",")
		if len(members) < 2 {
			t.Errorf("group %q has fewer than 2 members", line)
		}
		for i, m := range members {
			if i > 0 {
				if !strings.HasPrefix(m, " ") {
					t.Errorf("group %q: want \", \" between members", line)
				}
				m = m[1:]
			}
			if m == "" || m != strings.TrimSpace(m) || m != strings.ToLower(m) || m != normalize(m) {
				t.Errorf("group %q: member %q is not lower case, trimmed and normalized", line, m)
			}
			if seen[m] {
				t.Errorf("group %q: duplicate member %q", line, m)
			}
			seen[m] = true
		}
	}
	if groups < 80 {
		t.Errorf("only %d synonym groups", groups)
	}
}

func TestPhrases(t *testing.T) {
	ps := Phrases()
	for _, want := range []string{"rate limit", "access control", "sign in", "race condition"} {
		if !slices.Contains(ps, want) {
			t.Errorf("Phrases() lacks %q", want)
		}
	}
	for i, p := range ps {
		if !strings.Contains(p, " ") {
			t.Errorf("phrase %q has one word", p)
		}
		if Synonyms(p) == nil {
			t.Errorf("phrase %q has no synonyms", p)
		}
		if i > 0 && len(p) > len(ps[i-1]) {
			t.Errorf("phrases not longest first: %q after %q", p, ps[i-1])
		}
	}
	ps[0] = "mutated"
	if Phrases()[0] == "mutated" {
		t.Error("Phrases returned shared storage")
	}
}

func TestTranslate(t *testing.T) {
	tests := []struct {
		in   string
		want string // '|'-separated
	}{
		{"修复身份验证令牌过期错误", "fix|authentication|token|expiry|error"},
		{"为API端点添加速率限制", "endpoint|add|rate limit"},
		{"给登录接口增加限流", "login|api|add|rate limit"},
		{"数据库连接超时后重试", "database|connection|timeout|retry"},
		{"用户上传文件时内存泄漏导致崩溃", "user|upload|file|memory|leak|crash"},
		{"修复会话缓存过期的问题", "fix|session|cache|expiry|issue"},
		{"在图表中添加图例并修改坐标轴颜色", "chart|add|legend|modify|axis|color"},
		{"分页查询返回空列表", "pagination|query|return|empty|list"},
		{"日志中打印请求头", "log|print|request header"},
		{"这个函数表示用户的权限", "function|user|permission"},
		{"通过期望值判断", "value"},
		// A word the glossary lacks leaves its last character to match
		// alone: 蓝图 must be blueprint, not 图's graph.
		{"修复注册蓝图时URL前缀被重复拼接的问题", "fix|register|blueprint|prefix|duplicate|concatenate|issue"},
		{"包括单元测试", "include|unit test"},
		// Compounds that keep a character from matching alone in the
		// wrong sense, and blockers for common words.
		{"在 zsh 里补全时通配符没有匹配", "completion|wildcard|match"},
		{"候选值里带冒号", "candidate|value|colon"},
		{"带反斜杠之类特殊字符的地址", "backslash|character|address"},
		{"号这类字符", "character"},
		{"凭空多出一个值为空的字段", "value|empty|field"},
		{"用区分大小写的方式排序", "case sensitive|sort"},
		{"大写和小写开头的键", "uppercase|lowercase|key"},
		{"改用单引号包裹", "single quote|wrap"},
		{"缺少子类型时", "subtype"},
		{"某个顶层类型", "top level|type"},
		{"程序直接段错误崩溃", "segfault|crash"},
		{"注册表权限", "registry|permission"},
		{"建议增加一键设置代理", "add|settings|proxy"},
		{"页面堆叠在中间", "page"},
		{"访问时报权限不足", "access|permission denied"},
		{"自定义的请求头", "custom|request header"},
		{"解析器抛出下标越界异常", "parser|throw|index|out of bounds|exception"},
		{"JSON序列化和反序列化", "serialize|deserialize"},
		// Terms of interfaces and tools (2026-12-04).
		{"把对象绑定到插槽上", "object|slot"},
		{"剪贴板里的内容", "clipboard"},
		{"窗口始终置顶", "window|always on top"},
		{"多行文本框里多出一个空行", "multiline|textbox|blank line"},
		{"反向代理的握手超时", "reverse proxy|handshake|timeout"},
		{"子命令的日志级别", "subcommand|log|level"},
		{"钥匙串被锁定时安装挂起", "keychain|lock|install|suspend"},
		// The session-22 terms, and the words around them that FMM would
		// otherwise split wrongly: 互相等待 is no 相等, 测试中断言 no 中断,
		// 一块儿 and 块钱 no block, 尽快照 no snapshot, 部分片段 no shard.
		{"两个线程互相等待导致死锁", "thread|wait|deadlock"},
		{"测试中断言失败", "test|assert|failure"},
		{"在请求过程中断开连接", "request|disconnect|connection"},
		{"中断处理", "interrupt|handle"},
		{"不相等时报错", "equal|error"},
		{"我们一块儿看看", ""},
		{"十块钱", ""},
		{"数据块大小", "data|block|size"},
		{"尽快照此修改", "modify"},
		{"快照恢复", "snapshot|restore"},
		{"部分片段丢失", "lost"},
		{"分布式锁的副本和分片", "distributed|lock|replica|shard"},
		// Systems, tooling and interfaces (2026-12-07); 卷积 stays
		// convolution, and 卷入 is no volume.
		{"删除卷的时候如果卷还在被容器使用应该报错", "delete|volume|volume|container|error"},
		{"构建缓存清理命令不会删除悬空的缓存", "build|cache|cleanup|command|delete|dangling|cache"},
		{"容器日志轮转后停止输出", "container|log|rotate|stop|output"},
		{"卷积层的参数", "convolution|layer|parameter"},
		{"他被卷入了", ""},
		{"给守护进程加健康检查", "daemon|health check"},
		{"用打桩替换网络请求", "stub|replace|network|request"},
		{"进程退出码不对", "process|exit code"},
		{"读写锁导致死锁", "rwlock|deadlock"},
		// No term takes a character of the common words around it:
		// 宏观 is no macro, 卷起 and 问卷 no volume, 检查点击 no
		// checkpoint, 不断点击 no breakpoint, 简单例子 no singleton.
		{"存在线程安全问题", "thread safe|issue"},
		{"管理员拥有所有权限", "admin|permission"},
		{"检查点击事件是否触发", "check|click|event|trigger"},
		{"用户不断点击按钮", "user|click|button"},
		{"这是一个简单例子", ""},
		{"区别名称大小写", "name|case"},
		{"凭借用户的令牌访问", "user|token|access"},
		{"上报文件失败", "report|file|failure"},
		{"执行计划任务时失败", "execute|scheduled task|failure"},
		{"单元数据", "unit|data"},
		{"问卷调查", ""},
		{"卷轴组件", "scroll|component"},
		{"充电桩状态同步失败", "state|sync|failure"},
		// A second review's sentences: 报错 stays an error after 上, 线上
		// and 以上; 一轮 is no rotation, 除非阻塞 no nonblocking, 改变基础
		// no rebase, 临时延长 no latency, 联网关闭 no gateway, 例子模块
		// no submodule, 流水合并 no hydration.
		{"线上报错500", "error"},
		{"出现以上报错信息", "error"},
		{"线上报警", "alert"},
		{"一轮转换后数据丢失", "convert|data|lost"},
		{"除非阻塞时间过长", "block|time"},
		{"改变基础镜像后构建失败", "change|image|build|failure"},
		{"临时延长超时时间", "temporary|timeout|time"},
		{"联网关闭后重试", "close|retry"},
		{"这个例子模块导入失败", "module|import|failure"},
		{"流水合并", "stream|merge"},
		{"所有权重都是零", "weight"},
		{"不断开连接", "disconnect|connection"},
		{"测试里不断言返回值", "test|assert|return value"},
		{"精简单元测试", "unit test"},
		{"地区别名", "region|alias"},
		{"宏观上", ""},
		{"把表格卷起来", "table"},
		{"断点处暂停", "breakpoint|pause"},
		{"", ""},
		{"hello world", ""},
		{"天气很好", ""},
		{"🚀登录\xff令牌", "login|token"},
	}
	for _, tt := range tests {
		got := strings.Join(translate(tt.in), "|")
		if got != tt.want {
			t.Errorf("translate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTranslateAll(t *testing.T) {
	got := TranslateAll("错误接口")
	want := [][]string{{"error", "bug"}, {"api", "interface"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("TranslateAll = %v, want %v", got, want)
	}
	got[0][0] = "mutated"
	if TranslateAll("错误")[0][0] != "error" {
		t.Error("TranslateAll returned shared storage")
	}
	if TranslateAll("天气") != nil {
		t.Error("TranslateAll of unknown text is not nil")
	}
}

func TestSegment(t *testing.T) {
	text := "这个函数表示Tab补全"
	got := Segment(text)
	var parts []string
	for _, s := range got {
		p := text[s.Start:s.End]
		if s.Blocker() {
			p = "<" + p + ">"
		} else {
			p += "=" + s.English[0]
		}
		parts = append(parts, p)
	}
	if want := "<这个> 函数=function <表示> 补全=completion"; strings.Join(parts, " ") != want {
		t.Errorf("Segment(%q) = %q, want %q", text, strings.Join(parts, " "), want)
	}
	got[1].English[0] = "mutated"
	if Segment(text)[1].English[0] != "function" {
		t.Error("Segment returned shared storage")
	}
	if Segment("hello 🚀") != nil {
		t.Error("Segment of text with no entry is not nil")
	}
}

func TestGlossaryWellFormed(t *testing.T) {
	entries := parseGlossary(glossaryData)
	seen := map[string]bool{}
	outputs := 0
	for _, e := range entries {
		if seen[e.zh] {
			t.Errorf("duplicate glossary key %q", e.zh)
		}
		seen[e.zh] = true
		n := 0
		for _, r := range e.zh {
			n++
			if !unicode.Is(unicode.Han, r) {
				t.Errorf("glossary key %q has non-Han rune %q", e.zh, r)
			}
		}
		if n == 0 || n > maxKeyRunes {
			t.Errorf("glossary key %q has %d runes", e.zh, n)
		}
		for _, en := range e.en {
			if en != normalize(en) || en == "" {
				t.Errorf("glossary %q: output %q not normalized", e.zh, en)
			}
			for _, r := range en {
				if r >= utf8.RuneSelf {
					t.Errorf("glossary %q: output %q not ASCII", e.zh, en)
				}
			}
		}
		if len(e.en) > 0 {
			outputs++
		}
	}
	if outputs < 300 {
		t.Errorf("only %d glossary entries", outputs)
	}
	// Every entry translates to itself when alone.
	for _, e := range entries {
		got := TranslateAll(e.zh)
		if len(e.en) == 0 {
			if got != nil {
				t.Errorf("blocker %q translates to %v", e.zh, got)
			}
			continue
		}
		if len(got) != 1 || !slices.Equal(got[0], e.en) {
			t.Errorf("TranslateAll(%q) = %v, want [%v]", e.zh, got, e.en)
		}
	}
}

func FuzzTranslate(f *testing.F) {
	for _, s := range []string{"", "修复身份验证令牌过期错误", "为API端点添加速率限制", "\xff\xe4\xbf", "表示表", "a修b复c",
		"🚀登录失败😀", "ログインのエラー", "로그인 오류", "Ошибка входа登录", "e\u0301 修\u0301复", "👨‍👩‍👧补全\u200d通配符"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		all := TranslateAll(s)
		one := translate(s)
		// Segment's spans are in order, apart, on rune boundaries, and
		// each is a glossary entry; its terms are TranslateAll's.
		end, terms := 0, 0
		for _, sp := range Segment(s) {
			if sp.Start < end || sp.End <= sp.Start || sp.End > len(s) || !utf8.ValidString(s[sp.Start:sp.End]) {
				t.Fatalf("bad span [%d,%d) in %q", sp.Start, sp.End, s)
			}
			en, ok := tables().glossary[s[sp.Start:sp.End]]
			if !ok || !slices.Equal(en, sp.English) {
				t.Fatalf("span %q of %q is no entry", s[sp.Start:sp.End], s)
			}
			if !sp.Blocker() {
				if terms >= len(all) || !slices.Equal(all[terms], sp.English) {
					t.Fatalf("Segment and TranslateAll disagree on %q", s)
				}
				terms++
			}
			end = sp.End
		}
		if terms != len(all) {
			t.Fatalf("Segment and TranslateAll disagree on %q", s)
		}
		if len(all) != len(one) {
			t.Fatalf("Translate and TranslateAll disagree on %q", s)
		}
		for i := range one {
			if len(all[i]) == 0 || all[i][0] != one[i] || one[i] == "" {
				t.Fatalf("bad translation of %q: %v / %v", s, one, all)
			}
		}
		_ = Synonyms(s)
	})
}

func ExampleTranslateAll() {
	for _, alts := range TranslateAll("为API端点添加速率限制") {
		fmt.Println(alts[0])
	}
	fmt.Println(Synonyms("rate limit")[:3])
	// Output:
	// endpoint
	// add
	// rate limit
	// [ratelimit rate limiter ratelimiter]
}

// translate is the primary English of each segment.
func translate(text string) []string {
	var out []string
	for _, alts := range TranslateAll(text) {
		out = append(out, alts[0])
	}
	return out
}

func TestLanguageCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"German", []string{"de"}},
		{" norwegian ", []string{"no", "nb", "nn"}},
		{"Slovene", []string{"sl"}},
		{"Slovenian", []string{"sl"}},
		{"translation", nil},
		{"", nil},
	} {
		if got := LanguageCodes(tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("LanguageCodes(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// Every code is lower case, letters only, and every name's Chinese
	// form in the glossary translates to a name the table knows.
	for name, codes := range tables().codes {
		for _, c := range codes {
			if c != strings.ToLower(c) || strings.Trim(c, "abcdefghijklmnopqrstuvwxyz") != "" || len(c) < 2 || len(c) > 3 {
				t.Errorf("%s: code %q", name, c)
			}
		}
	}
	for _, zh := range []string{"德语", "日语", "西班牙语", "汉语"} {
		got := TranslateAll(zh)
		if len(got) != 1 || len(got[0]) == 0 || LanguageCodes(got[0][0]) == nil {
			t.Errorf("TranslateAll(%q) = %q, want a language the table knows", zh, got)
		}
	}
}

// ExampleLanguageCodes shows the codes of a language's locale files.
func ExampleLanguageCodes() {
	fmt.Println(LanguageCodes("Portuguese"), LanguageCodes("Norwegian"))
	// Output: [pt] [no nb nn]
}

// Unread lists the runs of Chinese the glossary does not know, two
// characters or more, once each; blockers are known, and so is English.
func TestUnread(t *testing.T) {
	for text, want := range map[string][]string{
		"容器重启后日志丢失":           nil, // 后 alone is a particle
		"修复 the token 过期 bug": nil,
		"检查麒麟蝴蝶的日志，麒麟蝴蝶":      {"麒麟蝴蝶"},
		"没有令牌":                nil, // 没有 is a blocker
		"":                    nil,
		"ログイン画面":              {"ログイン画面"},
		"サーバーが落ちる":            {"サーバーが落ちる"}, // the long-vowel mark is of the word
	} {
		if got := Unread(text); !slices.Equal(got, want) {
			t.Errorf("Unread(%q) = %q, want %q", text, got, want)
		}
	}
}
