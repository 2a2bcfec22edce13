package names

import (
	"context"
	"encoding/json"
	"testing"
)

type h struct{ UnimplementedHandlers }

func (h) Pick(_ context.Context, in PickInput) (PickOutput, error) {
	return PickOutput{X: float64(in.Level), Y: float64(len(in.X名前))}, nil
}

func TestNames(t *testing.T) {
	res, err := Tools(h{})[0].Handler(context.Background(), json.RawMessage(`{"名前":"ab","level":16}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.StructuredContent.(json.RawMessage)); got != `{"x":16,"y":2}` {
		t.Errorf("got %s", got)
	}
	if PickInputLevel5 != 5 || PickInputLevelMinus1 != -1 || PickInputLevel16 != 16 {
		t.Error("enum constants")
	}
	_ = TwoPoint{}
}
