package basic

import (
	"context"
	"encoding/json"
	"testing"
)

// The generated handler decodes every scalar and returns it as structured
// content.
func TestEcho(t *testing.T) {
	tool := Tools()[0]
	args := `{"bool":true,"int":-1,"int8":-128,"int16":300,"int32":70000,"rune":65,"int64":-9223372036854775808,"uint":1,"uint8":255,"byte":7,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615,"uintptr":3,"float32":1.5,"float64":2.25,"string":"s","bytes":"AQI=","time":"2026-11-23T12:00:00Z","duration":1000000000,"raw":{"k":[1]},"any":[true],"empty":null,"number":12.5}`
	res, err := tool.Handler(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(args), &want)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("round trip:\n got %s\nwant %s", g, w)
	}
}
