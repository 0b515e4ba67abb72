package reports

import (
	"bytes"
	"io"
	"sync"
)

// deflateAhead is the writer a workbook's zip entries are deflated
// through: what is written is gathered in chunks, and each chunk is handed
// to a goroutine that writes it to the deflater, after the chunk before
// it, while the next rows are written. Deflating is about a quarter of a
// workbook's CPU (the sheet of a 50,000-line budget is about 40 MB of XML),
// so on two cores a workbook completes sooner (docs/performance.md, "PDF
// pages deflated beside the layout"). The deflater sees the same bytes in
// the same order; at most deflateAheadChunks chunks are in flight, and a
// writer abandoned midway leaves no goroutine behind (each waits only for
// the one before it).
type deflateAhead struct {
	w        io.WriteCloser // the deflater
	buf      *bytes.Buffer
	last     chan struct{}   // closed when the last chunk handed on is written
	inflight []chan struct{} // of the chunks handed on, oldest first
	mu       sync.Mutex
	err      error // the deflater's first error
}

const (
	deflateAheadChunk  = 256 << 10
	deflateAheadChunks = 4
)

var deflateChunks = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, deflateAheadChunk+4<<10)) }}

func newDeflateAhead(w io.WriteCloser) *deflateAhead {
	return &deflateAhead{w: w, buf: deflateChunks.Get().(*bytes.Buffer)}
}

func (a *deflateAhead) failed() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

func (a *deflateAhead) Write(p []byte) (int, error) {
	if err := a.failed(); err != nil {
		return 0, err
	}
	a.buf.Write(p)
	if a.buf.Len() >= deflateAheadChunk {
		a.handOn()
	}
	return len(p), nil
}

// handOn hands the chunk gathered to a goroutine of its own, and waits
// while too many are in flight.
func (a *deflateAhead) handOn() {
	chunk, prev, done := a.buf, a.last, make(chan struct{})
	a.buf = deflateChunks.Get().(*bytes.Buffer)
	a.buf.Reset()
	a.last = done
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		if a.failed() == nil {
			if _, err := a.w.Write(chunk.Bytes()); err != nil {
				a.mu.Lock()
				a.err = err
				a.mu.Unlock()
			}
		}
		chunk.Reset()
		deflateChunks.Put(chunk)
	}()
	a.inflight = append(a.inflight, done)
	if len(a.inflight) > deflateAheadChunks {
		<-a.inflight[0]
		a.inflight = a.inflight[1:]
	}
}

// Close writes what is left and closes the deflater, once every chunk is
// written.
func (a *deflateAhead) Close() error {
	if a.buf.Len() > 0 {
		a.handOn()
	}
	if a.last != nil {
		<-a.last
	}
	a.inflight = nil
	if err := a.failed(); err != nil {
		return err
	}
	return a.w.Close()
}
