package sample

import (
	ix "example.com/m/index"
	"fmt"
)

// Server serves.
type Server[T any] struct {
	addr string
}

type Handler interface {
	Serve()
}

type Alias = Server[int]

const MaxConns = 10

var (
	registry = map[string]Handler{}
)

func New(addr string) *Server[int] {
	return &Server[int]{addr: addr}
}

func (s *Server[T]) Start() error {
	fmt.Println(s.addr)
	return ix.Open(s.addr)
}

func (s Server[T]) Stop() {}

// errNotFound's methods have a receiver with no name.
type errNotFound struct{}

func (errNotFound) Error() string { return "not found" }

func (*errNotFound) NotFound() {}

func (n *errNotFound) Unformatted() {}
