package retrieve_test

import (
	"slices"
	"testing"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
)

// One function holding the whole task outweighs a file that says each
// word somewhere.
func TestSpanSignals(t *testing.T) {
	repo := retrieve.WriteFiles(t, map[string]string{
		// One method holds every word of the task.
		"pkg/api.py": "class Grid:\n    def set_label_mode(self, mode):\n        \"\"\"Set the label mode of the axes grid.\"\"\"\n" +
			"        for ax in self.axes:\n            _toggle_tick_labels(ax, mode)\n\n" +
			"    def other(self):\n        return 1\n",
		// Every word, each in another function.
		"pkg/scatter.py": "def label():\n    return 1\n\n\ndef mode():\n    return 2\n\n\ndef grid():\n    return 3\n\n\ndef axes():\n    return 4\n",
	})
	res, err := retrieve.Retrieve(t.Context(), repo, "label mode of the axes grid is wrong", hone.Options{Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	sig := map[string][]float64{}
	for _, r := range res.Ranking {
		sig[r.Path] = r.Signals
	}
	api, scatter := sig["pkg/api.py"], sig["pkg/scatter.py"]
	sigSpanCover, sigSpanTitle := slices.Index(retrieve.SignalNames(), "span_cover"), slices.Index(retrieve.SignalNames(), "span_title")
	if sigSpanCover < 0 || sigSpanTitle < 0 {
		t.Fatalf("SignalNames %v lacks span_cover or span_title", retrieve.SignalNames())
	}
	if api == nil || scatter == nil {
		t.Fatalf("ranking %v lacks a file", res.Ranking)
	}
	if api[sigSpanCover] < 0.99 || api[sigSpanTitle] < 0.99 {
		t.Errorf("api.py's set_label_mode holds every word of the task: span_cover %v, span_title %v", api[sigSpanCover], api[sigSpanTitle])
	}
	if scatter[sigSpanCover] >= api[sigSpanCover] || scatter[sigSpanCover] > 0.5 {
		t.Errorf("scatter.py holds one word a function: span_cover %v, against api.py's %v", scatter[sigSpanCover], api[sigSpanCover])
	}
}
