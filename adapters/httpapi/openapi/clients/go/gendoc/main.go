// Command gendoc writes the API description the server serves, the OpenAPI
// 3.1 document (GET /api/docs/openapi.json) and its 3.0.3 rendition (GET
// /api/docs/openapi-3.0.json), for the client generators. The bytes are the
// served ones: adapters/httpapi/openapi's TestServed holds the server to them.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/costdb/costdb/adapters/httpapi/openapi"
)

func main() {
	out31 := flag.String("openapi", "", "write the OpenAPI 3.1 document (JSON) to this file")
	out30 := flag.String("openapi30", "", "write the OpenAPI 3.0.3 rendition (JSON) to this file")
	flag.Parse()
	for _, o := range []struct {
		path string
		doc  func() ([]byte, error)
	}{{*out31, openapi.JSON}, {*out30, openapi.JSON30}} {
		if o.path == "" {
			continue
		}
		b, err := o.doc()
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(o.path, b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
