package modeleval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hone-tools/hone/redact"
)

// Endpoint is how a Chat over HTTP reaches its model.
type Endpoint struct {
	// BaseURL is the API's root, such as https://api.openai.com/v1.
	BaseURL string
	Model   string
	// Key is the API key; it goes in a header and nowhere else.
	Key string
	// Client makes the requests; nil means a client of its own.
	Client *http.Client
	// Timeout bounds each attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// Retries are the attempts made again after a 429, a 408, a 5xx or a
	// broken connection (and once after an attempt that ran out of time);
	// 0 means 3, and a negative number none.
	Retries int
	// MaxWait bounds one wait between attempts, Retry-After's included;
	// 0 means 30 seconds. A server that asks for longer fails the call.
	MaxWait time.Duration
}

// noRedirects is the client, or a default one, that follows no redirect:
// a key in a header of its own (Anthropic's x-api-key) would go with it
// to another host.
func noRedirects(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cc
}

// maxBody bounds what is read of an answer.
const maxBody = 8 << 20

// statusError is an endpoint's answer other than 200.
type statusError struct {
	status     int
	msg        string
	retryAfter time.Duration
}

func (e *statusError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.msg)
}

// hint says what to do about a status that is the user's to mend.
func (e *statusError) hint() string {
	switch e.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return " (check the API key, and that it may use this model)"
	case http.StatusNotFound:
		return " (check the model's name, and that the base URL, hone's --base-url, is the API's root, such as https://api.openai.com/v1)"
	}
	return ""
}

func (e *statusError) retryable() bool {
	return e.status == http.StatusTooManyRequests || e.status == http.StatusRequestTimeout || e.status >= 500
}

// post sends body as JSON to path, with the headers, retrying what may be
// retried, and decodes a 200's body into out. errMsg reads an error
// body's message. It returns the attempts it made again.
func (ep *Endpoint) post(ctx context.Context, name, path string, header http.Header, body any, out any, errMsg func([]byte) string) (int, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, fmt.Errorf("%s: encode the request: %w", name, err)
	}
	client := noRedirects(ep.Client)
	timeout := ep.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	retries := ep.Retries
	if retries == 0 {
		retries = 3
	}
	maxWait := ep.MaxWait
	if maxWait <= 0 {
		maxWait = 30 * time.Second
	}
	url, err := endpointURL(ep.BaseURL, path)
	if err != nil {
		return 0, err
	}
	for attempt := 0; ; attempt++ {
		err := ep.once(ctx, client, url, header, b, timeout, out, errMsg)
		if err == nil {
			return attempt, nil
		}
		if ctx.Err() != nil {
			return attempt, ctx.Err()
		}
		var se *statusError
		wait := backoff(attempt)
		switch {
		case errors.As(err, &se) && se.retryable():
			if se.retryAfter > 0 {
				wait = se.retryAfter
			}
		case errors.As(err, &se):
			return attempt, ep.fail(name, err, se.hint())
		case errors.Is(err, errTimeout):
			// A model that did not answer in the whole timeout is tried
			// once more (a local server loading its model answers the
			// second call), not three times: an endpoint that never
			// answers held a retrieve four minutes.
			if attempt >= 1 {
				return attempt, ep.fail(name, err, fmt.Sprintf(" (after %d attempts)", attempt+1))
			}
		case errors.Is(err, errConnection):
		default:
			return attempt, ep.fail(name, err, "")
		}
		if attempt >= retries || retries < 0 {
			return attempt, ep.fail(name, err, fmt.Sprintf(" (after %d attempts)", attempt+1))
		}
		if se != nil && se.retryAfter > maxWait {
			return attempt, ep.fail(name, err, fmt.Sprintf(" (it asks to wait %s, more than %s)", se.retryAfter.Round(time.Second), maxWait))
		}
		wait = min(wait, maxWait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return attempt, ctx.Err()
		}
	}
}

var (
	errTimeout    = errors.New("no answer in time")
	errConnection = errors.New("cannot connect")
)

// once makes one attempt.
func (ep *Endpoint) once(ctx context.Context, client *http.Client, url string, header http.Header, body []byte, timeout time.Duration, out any, errMsg func([]byte) string) error {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("bad base URL %q: %v", ep.BaseURL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if actx.Err() != nil {
			return fmt.Errorf("%w after %s", errTimeout, timeout)
		}
		return fmt.Errorf("%w to %s", errConnection, ep.BaseURL)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("%w after %s", errTimeout, timeout)
		}
		return fmt.Errorf("%w: the answer broke off: %v", errConnection, err)
	}
	if len(data) > maxBody {
		return fmt.Errorf("the answer is over %d MiB", maxBody>>20)
	}
	// An error that repeats the key (one that quotes the header it
	// refused) has it taken out before anything is cut from it: a message
	// cut inside the key would keep its head, which no longer matches. An
	// answer is left as it is, and so is a key too short to be one (a
	// local server's "1" or "x"), which would turn up in any text.
	if resp.StatusCode != http.StatusOK && keyLike(ep.Key) {
		data = bytes.ReplaceAll(data, []byte(ep.Key), []byte("[redacted: api key]"))
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return fmt.Errorf("the endpoint redirects (HTTP %d) to %q: give that address as the base URL (hone's --base-url); hone follows no redirect with a key", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp.StatusCode != http.StatusOK {
		return &statusError{status: resp.StatusCode, msg: oneLine(errMsg(data), 200), retryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the answer is not the API's JSON (is the base URL, hone's --base-url, the API's root?): %s", snippet(string(data)))
	}
	return nil
}

// keyLike reports whether a key is long enough to be a secret, and to be
// taken out of a text without taking out anything else: a local server's
// placeholder key ("1", "x", "ollama") is neither.
func keyLike(key string) bool { return len(key) >= 8 }

// endpointURL is the API's path under a base URL, before its query: an
// Azure endpoint's ?api-version=... stays last.
func endpointURL(base, path string) (string, error) {
	u, err := neturl.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad base URL %q: %v", base, err)
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath = ""
	return u.String(), nil
}

// fail makes an endpoint's error one line that names the endpoint, with
// the key and any secret taken out.
func (ep *Endpoint) fail(name string, err error, suffix string) error {
	msg := err.Error()
	if keyLike(ep.Key) {
		msg = strings.ReplaceAll(msg, ep.Key, "[redacted: api key]")
	}
	msg, _ = redact.String(msg)
	return fmt.Errorf("%s: %s%s", name, msg, suffix)
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// backoff is the wait before attempt+1 when the server names none: half a
// second, doubled each time, with jitter.
func backoff(attempt int) time.Duration {
	d := 500 * time.Millisecond << min(attempt, 6)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}
