package history

import (
	"os"
	"sync"
)

// keptLogs bounds the histories a process keeps: one per repository a
// long-running process works on (as many as it keeps indexes open).
const keptLogs = 4

// kept are the histories this process read last, for a process that
// reads one again and again: a read of the same head, from the same pack,
// gives the same history.
var kept logMemo

type logMemo struct {
	mu   sync.Mutex
	logs []keptLog // least recently used first
}

type keptLog struct {
	db, head string
	pack     os.FileInfo // the pack it was read from
	log      *Log
}

// statPack is the pack of the cache whose database is db, as it is on
// disk now; nil when there is none.
func statPack(db string) os.FileInfo {
	fi, err := os.Stat(packFile(db))
	if err != nil {
		return nil
	}
	return fi
}

// get returns the history of head kept from the cache db's pack, if the
// pack is still the one it was read from: the same file, unchanged.
func (m *logMemo) get(db, head string, pack os.FileInfo) *Log {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, k := range m.logs {
		if k.db != db || k.head != head {
			continue
		}
		if !os.SameFile(k.pack, pack) || k.pack.Size() != pack.Size() || !k.pack.ModTime().Equal(pack.ModTime()) {
			m.logs = append(m.logs[:i], m.logs[i+1:]...)
			return nil
		}
		m.logs = append(append(m.logs[:i], m.logs[i+1:]...), k)
		return k.log
	}
	return nil
}

// put keeps the history of head, read from the pack as it was before the
// read (a pack replaced meanwhile differs from it, and is read again).
func (m *logMemo) put(db, head string, pack os.FileInfo, l *Log) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, k := range m.logs {
		if k.db == db {
			m.logs = append(m.logs[:i], m.logs[i+1:]...)
			break
		}
	}
	m.logs = append(m.logs, keptLog{db: db, head: head, pack: pack, log: l})
	if len(m.logs) > keptLogs {
		m.logs = m.logs[1:]
	}
}
