module github.com/toolgen-go/toolgen

go 1.25.0

require (
	github.com/golang-jwt/jwt/v5 v5.3.1
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	gopkg.in/yaml.v3 v3.0.1
)
