package typeschema

import (
	"encoding/json"
	"testing"
)

func TestSignatureAndArguments(t *testing.T) {
	in := json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","description":"Who."},
		"level":{"enum":["quiet","loud"],"default":"quiet"},
		"times":{"type":"integer","default":1},
		"tags":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"integer"}]}},
		"meta":{"type":"object","additionalProperties":{"type":"boolean"}},
		"when":{"type":["string","null"]},
		"node":{"$ref":"#/$defs/Node"},
		"self":{"$ref":"#"},
		"c":{"const":"x"},
		"any":{}
	},"required":["name"]}`)
	out := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"count":{"type":"integer"}},"required":["text"]}`)
	want := `greet(name: string, level?: "quiet" | "loud" = "quiet", times?: integer = 1, tags?: (string | integer)[], meta?: {[key: string]: boolean}, when?: string | null, node?: Node, self?: object, c?: "x", any?: any) -> {text: string, count?: integer}`
	if got := Signature("greet", in, out, "string"); got != want {
		t.Errorf("signature\n got %s\nwant %s", got, want)
	}
	if got := Signature("greet", in, nil, Result(out)); got != want {
		t.Errorf("signature from Result\n got %s\nwant %s", got, want)
	}
	if got := Signature("f", json.RawMessage(`{"type":"object"}`), nil, ""); got != "f()" {
		t.Errorf("no arguments, no result: %s", got)
	}
	if got := Signature("f", nil, nil, "content"); got != "f() -> content" {
		t.Errorf("result hint: %s", got)
	}
	args, _ := json.Marshal(Arguments(in)[:3])
	if want := `[{"name":"name","type":"string","required":true,"description":"Who."},{"name":"level","type":"\"quiet\" | \"loud\"","required":false,"default":"quiet","description":""},{"name":"times","type":"integer","required":false,"default":1,"description":""}]`; string(args) != want {
		t.Errorf("arguments\n got %s\nwant %s", args, want)
	}
	if got := Arguments(json.RawMessage(`{"type":"object"}`)); got == nil || len(got) != 0 {
		t.Errorf("no properties: %v", got)
	}
}
