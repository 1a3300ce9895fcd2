package renders

import (
	"container/list"
	"sync"
)

// LRU is a byte-bounded least-recently-used cache of pictures and
// texts, safe for concurrent use.
type LRU struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // front: most recent
	items map[string]*list.Element
}

type lruEntry struct {
	key  string
	data []byte
}

// NewLRU holds at most max bytes.
func NewLRU(max int) *LRU {
	return &LRU{max: max, order: list.New(), items: map[string]*list.Element{}}
}

// Get is the entry key, if held.
func (c *LRU) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry).data, true
	}
	return nil, false
}

// Put holds data under key (an entry larger than the bound is not
// held); the least recently used entries go to make room.
func (c *LRU) Put(key string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; ok || len(data) > c.max {
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry{key, data})
	c.size += len(data)
	for c.size > c.max {
		e := c.order.Back()
		en := e.Value.(*lruEntry)
		c.order.Remove(e)
		delete(c.items, en.key)
		c.size -= len(en.data)
	}
}

// Bytes is the cache's current size.
func (c *LRU) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}
