// Package costdbclient is the client oapi-codegen generates from costdb's
// OpenAPI 3.0.3 rendition (client.gen.go, made by `go generate ./...` in the
// module's root and not kept in the repository).
package costdbclient
