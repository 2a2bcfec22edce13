package historytest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// RunHumans runs the conformance suite of human requests ([history.Humans])
// on the stores open makes, which must implement it: each subtest opens
// its own store and runs in parallel with the others.
func RunHumans(t *testing.T, open Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, h humanStore)
	}{
		{"CreateGet", testCreateGet},
		{"Defaults", testRequestDefaults},
		{"Exists", testRequestExists},
		{"NotFound", testRequestNotFound},
		{"Respond", testRespond},
		{"Expired", testExpired},
		{"Cancel", testCancel},
		{"List", testListRequests},
		{"ListErrors", testListRequestErrors},
		{"ConcurrentResponders", testConcurrentResponders},
		{"Copies", testRequestCopies},
		{"InvalidText", testRequestInvalidText},
		{"RecordApproval", testRecordApproval},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t, open, history.Retention{})
			h, ok := s.(history.Humans)
			if !ok {
				t.Fatalf("%T does not implement history.Humans", s)
			}
			tc.f(t, humanStore{s, h})
		})
	}
}

type humanStore struct {
	history.Store
	history.Humans
}

// request is a plain request created at (a time near now, so that it has
// not expired).
func request(n int, typ string, at time.Time) *history.Request {
	return &history.Request{
		ID:             fmt.Sprintf("req-%d", n),
		Type:           typ,
		Prompt:         fmt.Sprintf("Approve step %d?", n),
		Options:        []string{"approve", "reject"},
		Context:        []byte(fmt.Sprintf(`{"step": %d, "why":"<because>"}`, n)),
		TimeoutSeconds: 3600,
		CreatedAt:      at,
	}
}

// wantRequest is r as a store gives it back, by the suite's own reading
// of the rules.
func wantRequest(r *history.Request, st history.RequestStatus) *history.Request {
	c := *r
	c.CreatedAt = r.CreatedAt.UTC().Truncate(time.Millisecond)
	c.ExpiresAt = c.CreatedAt.Add(time.Duration(r.TimeoutSeconds) * time.Second)
	c.Status = st
	if len(c.Context) == 0 {
		c.Context = []byte("{}")
	}
	return &c
}

func create(t *testing.T, h humanStore, r *history.Request) {
	t.Helper()
	if err := h.CreateRequest(t.Context(), r); err != nil {
		t.Fatalf("CreateRequest(%q): %v", r.ID, err)
	}
}

func respond(t *testing.T, h humanStore, r *history.Response) {
	t.Helper()
	if err := h.Respond(t.Context(), r); err != nil {
		t.Fatalf("Respond(%q): %v", r.RequestID, err)
	}
}

// getRequest fetches id and checks it against w and wr (nil: no response).
func getRequest(t *testing.T, h humanStore, w *history.Request, wr *history.Response) {
	t.Helper()
	got, resp, err := h.GetRequest(t.Context(), w.ID)
	if err != nil {
		t.Fatalf("GetRequest(%q): %v", w.ID, err)
	}
	if d := diffRequest(got, w); d != "" {
		t.Errorf("GetRequest(%q):\n%s", w.ID, d)
	}
	switch {
	case (resp == nil) != (wr == nil):
		t.Errorf("GetRequest(%q) response = %+v, want %+v", w.ID, resp, wr)
	case resp != nil:
		if d := diffResponse(resp, wr); d != "" {
			t.Errorf("GetRequest(%q) response:\n%s", w.ID, d)
		}
	}
}

func diffRequest(got, w *history.Request) string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	for _, f := range []struct{ name, g, w string }{
		{"ID", got.ID, w.ID}, {"Type", got.Type, w.Type}, {"Prompt", got.Prompt, w.Prompt},
		{"Status", string(got.Status), string(w.Status)}, {"Tool", got.Tool, w.Tool},
		{"CorrelationID", show(got.CorrelationID), show(w.CorrelationID)}, {"Caller", show(got.Caller), show(w.Caller)},
	} {
		if f.g != f.w {
			add("%s = %q, want %q", f.name, f.g, f.w)
		}
	}
	if (got.Options == nil) != (w.Options == nil) || !slices.Equal(got.Options, w.Options) {
		add("Options = %#v, want %#v", got.Options, w.Options)
	}
	if !bytes.Equal(got.Context, w.Context) {
		add("Context = %s, want %s", short(got.Context), short(w.Context))
	}
	if got.TimeoutSeconds != w.TimeoutSeconds {
		add("TimeoutSeconds = %d, want %d", got.TimeoutSeconds, w.TimeoutSeconds)
	}
	for _, f := range []struct {
		name string
		g, w time.Time
	}{{"CreatedAt", got.CreatedAt, w.CreatedAt}, {"ExpiresAt", got.ExpiresAt, w.ExpiresAt}} {
		if !f.g.Equal(f.w) || f.g.Location() != time.UTC {
			add("%s = %s, want %s in UTC", f.name, f.g.Format(time.RFC3339Nano), f.w.Format(time.RFC3339Nano))
		}
	}
	return strings.Join(d, "\n")
}

func diffResponse(got, w *history.Response) string {
	var d []string
	for _, f := range []struct{ name, g, w string }{
		{"ID", got.ID, w.ID}, {"RequestID", got.RequestID, w.RequestID}, {"Response", got.Response, w.Response},
		{"RespondedBy", show(got.RespondedBy), show(w.RespondedBy)}, {"Metadata", string(got.Metadata), string(w.Metadata)},
	} {
		if f.g != f.w {
			d = append(d, fmt.Sprintf("%s = %q, want %q", f.name, f.g, f.w))
		}
	}
	wat := w.CreatedAt.UTC().Truncate(time.Millisecond)
	if !got.CreatedAt.Equal(wat) || got.CreatedAt.Location() != time.UTC {
		d = append(d, fmt.Sprintf("CreatedAt = %s, want %s in UTC", got.CreatedAt.Format(time.RFC3339Nano), wat.Format(time.RFC3339Nano)))
	}
	return strings.Join(d, "\n")
}

func testCreateGet(t *testing.T, h humanStore) {
	now := time.Now().Add(-time.Minute)
	r := request(1, "approval", now)
	r.CorrelationID, r.Caller, r.Tool = ptr("wf-7"), ptr("alice"), "deploy"
	create(t, h, r)
	getRequest(t, h, wantRequest(r, history.RequestPending), nil)

	// Any answer allowed, a context with odd JSON kept byte for byte.
	r2 := request(2, "input", now)
	r2.Options = nil
	r2.Context = []byte(`{"big": 12345678901234567890, "s": "\u00e9\n"}`)
	create(t, h, r2)
	getRequest(t, h, wantRequest(r2, history.RequestPending), nil)
}

func testRequestDefaults(t *testing.T, h humanStore) {
	r := request(1, "review", time.Now())
	r.Context = nil
	create(t, h, r)
	getRequest(t, h, wantRequest(r, history.RequestPending), nil)

	for _, bad := range []*history.Request{
		{Type: "input", Prompt: "no id", TimeoutSeconds: 60, CreatedAt: time.Now()},
		{ID: "no-timeout", Type: "input", Prompt: "?", CreatedAt: time.Now()},
	} {
		if err := h.CreateRequest(t.Context(), bad); err == nil {
			t.Errorf("CreateRequest(%+v) = nil, want an error", bad)
		}
	}
}

func testRequestExists(t *testing.T, h humanStore) {
	r := request(1, "approval", time.Now())
	create(t, h, r)
	again := request(1, "input", time.Now())
	again.Prompt = "another question"
	if err := h.CreateRequest(t.Context(), again); !errors.Is(err, history.ErrExists) {
		t.Fatalf("second CreateRequest = %v, want ErrExists", err)
	}
	getRequest(t, h, wantRequest(r, history.RequestPending), nil) // not overwritten
}

func testRequestNotFound(t *testing.T, h humanStore) {
	if _, _, err := h.GetRequest(t.Context(), "nope"); !errors.Is(err, history.ErrRequestNotFound) {
		t.Errorf("GetRequest = %v, want ErrRequestNotFound", err)
	}
	err := h.Respond(t.Context(), &history.Response{ID: "r1", RequestID: "nope", Response: "approve", CreatedAt: time.Now()})
	if !errors.Is(err, history.ErrRequestNotFound) {
		t.Errorf("Respond = %v, want ErrRequestNotFound", err)
	}
	if err := h.CancelRequest(t.Context(), "nope"); !errors.Is(err, history.ErrRequestNotFound) {
		t.Errorf("CancelRequest = %v, want ErrRequestNotFound", err)
	}
}

func testRespond(t *testing.T, h humanStore) {
	r := request(1, "approval", time.Now())
	create(t, h, r)
	resp := &history.Response{ID: "resp-1", RequestID: r.ID, Response: "approve", RespondedBy: ptr("bob"),
		Metadata: []byte(`{"note":"looks fine"}`), CreatedAt: base.Add(time.Hour)}
	respond(t, h, resp)
	getRequest(t, h, wantRequest(r, history.RequestResponded), resp)

	second := &history.Response{ID: "resp-2", RequestID: r.ID, Response: "reject", CreatedAt: time.Now()}
	if err := h.Respond(t.Context(), second); !errors.Is(err, history.ErrResponded) {
		t.Fatalf("second Respond = %v, want ErrResponded", err)
	}
	getRequest(t, h, wantRequest(r, history.RequestResponded), resp) // the first answer stands

	// No metadata reads as {}; no responder stays nil.
	r2 := request(2, "input", time.Now())
	create(t, h, r2)
	resp2 := &history.Response{ID: "resp-3", RequestID: r2.ID, Response: "anything", CreatedAt: time.Now()}
	respond(t, h, resp2)
	w2 := *resp2
	w2.Metadata = []byte("{}")
	getRequest(t, h, wantRequest(r2, history.RequestResponded), &w2)
}

func testExpired(t *testing.T, h humanStore) {
	old := request(1, "approval", time.Now().Add(-2*time.Hour))
	old.TimeoutSeconds = 60
	create(t, h, old)
	fresh := request(2, "approval", time.Now())
	create(t, h, fresh)
	getRequest(t, h, wantRequest(old, history.RequestExpired), nil)

	err := h.Respond(t.Context(), &history.Response{ID: "resp-1", RequestID: old.ID, Response: "approve", CreatedAt: time.Now()})
	if !errors.Is(err, history.ErrExpired) {
		t.Fatalf("Respond to an expired request = %v, want ErrExpired", err)
	}
	expectRequests(t, h, history.RequestFilter{Status: "expired"}, 1, old.ID)
	expectRequests(t, h, history.RequestFilter{Status: "pending"}, 1, fresh.ID)
	if err := h.CancelRequest(t.Context(), old.ID); err != nil {
		t.Fatalf("CancelRequest of an expired request: %v", err)
	}
	getRequest(t, h, wantRequest(old, history.RequestExpired), nil) // left as it was
}

func testCancel(t *testing.T, h humanStore) {
	r := request(1, "approval", time.Now())
	create(t, h, r)
	if err := h.CancelRequest(t.Context(), r.ID); err != nil {
		t.Fatalf("CancelRequest: %v", err)
	}
	getRequest(t, h, wantRequest(r, history.RequestCancelled), nil)
	err := h.Respond(t.Context(), &history.Response{ID: "resp-1", RequestID: r.ID, Response: "approve", CreatedAt: time.Now()})
	if !errors.Is(err, history.ErrCancelled) {
		t.Fatalf("Respond to a cancelled request = %v, want ErrCancelled", err)
	}

	answered := request(2, "approval", time.Now())
	create(t, h, answered)
	resp := &history.Response{ID: "resp-2", RequestID: answered.ID, Response: "reject", CreatedAt: time.Now()}
	respond(t, h, resp)
	if err := h.CancelRequest(t.Context(), answered.ID); err != nil {
		t.Fatalf("CancelRequest of an answered request: %v", err)
	}
	w := *resp
	w.Metadata = []byte("{}")
	getRequest(t, h, wantRequest(answered, history.RequestResponded), &w)
}

// expectRequests checks that f lists exactly wantIDs (in order) with a
// total of wantTotal.
func expectRequests(t *testing.T, h humanStore, f history.RequestFilter, wantTotal int, wantIDs ...string) {
	t.Helper()
	reqs, total, err := h.ListRequests(t.Context(), f)
	if err != nil {
		t.Fatalf("ListRequests(%+v): %v", f, err)
	}
	if reqs == nil {
		t.Errorf("ListRequests(%+v) = nil, want an empty slice", f)
	}
	got := make([]string, len(reqs))
	for i, r := range reqs {
		got[i] = r.ID
	}
	if !slices.Equal(got, wantIDs) || total != wantTotal {
		t.Errorf("ListRequests(%+v) = %q, total %d\nwant %q, total %d", f, got, total, wantIDs, wantTotal)
	}
}

func testListRequests(t *testing.T, h humanStore) {
	now := time.Now().Add(-time.Minute)
	// Created out of order: the list is by CreatedAt, newest first.
	for _, n := range []int{3, 1, 4, 2, 5} {
		typ := "approval"
		if n%2 == 0 {
			typ = "input"
		}
		r := request(n, typ, now.Add(time.Duration(n)*time.Second))
		if n <= 2 {
			r.Caller = ptr("alice")
		}
		create(t, h, r)
	}
	respond(t, h, &history.Response{ID: "resp-4", RequestID: "req-4", Response: "approve", CreatedAt: time.Now()})

	expectRequests(t, h, history.RequestFilter{}, 5, "req-5", "req-4", "req-3", "req-2", "req-1")
	expectRequests(t, h, history.RequestFilter{Type: "input"}, 2, "req-4", "req-2")
	expectRequests(t, h, history.RequestFilter{Status: "pending"}, 4, "req-5", "req-3", "req-2", "req-1")
	expectRequests(t, h, history.RequestFilter{Status: "responded"}, 1, "req-4")
	expectRequests(t, h, history.RequestFilter{Status: "pending", Type: "approval"}, 3, "req-5", "req-3", "req-1")
	expectRequests(t, h, history.RequestFilter{Caller: ptr("alice")}, 2, "req-2", "req-1")
	expectRequests(t, h, history.RequestFilter{Caller: ptr("")}, 0)
	expectRequests(t, h, history.RequestFilter{Limit: 2}, 5, "req-5", "req-4")
	expectRequests(t, h, history.RequestFilter{Limit: 2, Offset: 2}, 5, "req-3", "req-2")
	expectRequests(t, h, history.RequestFilter{Limit: 2, Offset: 10}, 5)
	expectRequests(t, h, history.RequestFilter{Type: "nothing"}, 0)

	// A full request reads back from a list as from GetRequest.
	reqs, _, err := h.ListRequests(t.Context(), history.RequestFilter{Type: "input", Status: "responded"})
	if err != nil || len(reqs) != 1 {
		t.Fatalf("ListRequests = %v, %v", reqs, err)
	}
	w := wantRequest(request(4, "input", now.Add(4*time.Second)), history.RequestResponded)
	if d := diffRequest(&reqs[0], w); d != "" {
		t.Errorf("listed request:\n%s", d)
	}
}

func testListRequestErrors(t *testing.T, h humanStore) {
	for _, f := range []history.RequestFilter{
		{Limit: -1}, {Limit: history.MaxLimit + 1}, {Offset: -1}, {Status: "done"},
	} {
		if _, _, err := h.ListRequests(t.Context(), f); err == nil {
			t.Errorf("ListRequests(%+v) = nil error, want one", f)
		}
	}
	expectRequests(t, h, history.RequestFilter{Limit: history.MaxLimit}, 0)
}

func testConcurrentResponders(t *testing.T, h humanStore) {
	r := request(1, "approval", time.Now())
	create(t, h, r)
	const n = 8
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		won     []string
		refused int
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := &history.Response{ID: fmt.Sprintf("resp-%d", i), RequestID: r.ID, Response: "approve", CreatedAt: time.Now()}
			err := h.Respond(t.Context(), resp)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won = append(won, resp.ID)
			case errors.Is(err, history.ErrResponded):
				refused++
			default:
				t.Errorf("Respond: %v", err)
			}
		}()
	}
	wg.Wait()
	if len(won) != 1 || refused != n-1 {
		t.Fatalf("%d answers accepted (%q) and %d refused, want 1 and %d", len(won), won, refused, n-1)
	}
	_, resp, err := h.GetRequest(t.Context(), r.ID)
	if err != nil || resp == nil || resp.ID != won[0] {
		t.Fatalf("GetRequest = %+v, %v; want the response %s", resp, err, won[0])
	}
}

func testRequestCopies(t *testing.T, h humanStore) {
	r := request(1, "approval", time.Now())
	w := wantRequest(r, history.RequestPending)
	w.Options, w.Context = slices.Clone(r.Options), bytes.Clone(r.Context)
	create(t, h, r)
	r.Options[0], r.Context[2] = "changed", 'X' // the caller reuses its buffers
	getRequest(t, h, w, nil)
	got, _, _ := h.GetRequest(t.Context(), r.ID)
	got.Options[0], got.Context[2] = "changed", 'X'
	getRequest(t, h, w, nil)
}

func testRequestInvalidText(t *testing.T, h humanStore) {
	r := request(1, "appr\xffoval", time.Now())
	r.Prompt = "nul\x00here"
	create(t, h, r)
	w := wantRequest(r, history.RequestPending)
	w.Type, w.Prompt = "appr\uFFFDoval", "nul\uFFFDhere"
	getRequest(t, h, w, nil)
	expectRequests(t, h, history.RequestFilter{Type: "appr\xffoval"}, 1, r.ID)
}

func testRecordApproval(t *testing.T, h humanStore) {
	at := time.Now().Add(-time.Second)
	r := pending(1, "deploy", at)
	start(t, h, r)
	f := finished(r, history.Success)
	f.Approval = &history.Approval{Decision: "approve", By: ptr("bob"), At: base}
	finish(t, h, f)
	w := want(f)
	w.Approval = &history.Approval{Decision: "approve", By: ptr("bob"), At: base.Truncate(time.Millisecond)}
	get(t, h, w)
	recs, _ := list(t, h, history.Filter{Tool: "deploy"})
	if len(recs) != 1 || Diff(&recs[0], w) != "" {
		t.Errorf("List: %+v\n%s", recs, Diff(&recs[0], w))
	}

	// An expiry has nobody to name.
	r2 := pending(2, "deploy", at)
	start(t, h, r2)
	f2 := finished(r2, history.Failed)
	f2.Approval = &history.Approval{Decision: "expired", At: base}
	finish(t, h, f2)
	w2 := want(f2)
	w2.Approval = &history.Approval{Decision: "expired", At: base.Truncate(time.Millisecond)}
	get(t, h, w2)
}
