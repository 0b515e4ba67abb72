// Package costdbclientgen generates a Go client of costdb's HTTP API with
// oapi-codegen, from the document the server serves, and tests it against a
// real server (costdbclient/client_test.go): money and coefficients must
// come back to the centavo.
//
// This is a module of its own, so that costdb's module does not depend on
// oapi-codegen. Generate, build and test (what CI runs):
//
//	go generate ./... && go build ./... && COSTDB_TEST_ENGINES=bolt go test ./...
package costdbclientgen

//go:generate go run ./gendoc -openapi30 openapi-3.0.json -openapi ../ts/openapi.json
//go:generate go tool oapi-codegen -config oapi-codegen.yaml openapi-3.0.json
