package discord

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestLimitConcurrent: n requests run at once, one more is refused 503
// with Retry-After without reaching the handler, and a freed slot serves
// again.
func TestLimitConcurrent(t *testing.T) {
	t.Parallel()
	release, started := make(chan struct{}), make(chan struct{}, 2)
	var mu sync.Mutex
	reached := 0
	h := LimitConcurrent(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached++
		mu.Unlock()
		if r.URL.Path == "/hold" {
			started <- struct{}{}
			<-release
		}
	}), 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/hold", nil))
		}()
	}
	<-started
	<-started
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/x", nil))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("third request: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	close(release)
	wg.Wait()
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/x", nil))
	if w.Code != 200 {
		t.Errorf("after the slots freed: %d", w.Code)
	}
	if reached != 3 {
		t.Errorf("the handler ran %d times, want 3 (the refused request must not reach it)", reached)
	}
}
