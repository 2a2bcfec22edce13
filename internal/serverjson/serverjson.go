// Package serverjson writes the MCP registry's server description,
// server.json (toolgen -server-json), in the registry's 2025-09-29 schema:
// the server's name in reverse-DNS form, its description and version, and
// how it is reached (a remote over Streamable HTTP, an OCI image over
// stdio).
//
// Build checks what the schema requires of what it writes (the name's
// pattern and length, the description's length, a version that is not a
// range, absolute http(s) remote URLs, an image's version not "latest"),
// so that a document it returns is one the registry accepts.
package serverjson

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// SchemaURL is the $schema of the documents Build writes.
const SchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"

// Limits the registry's schema sets.
const (
	MaxName        = 200
	MaxDescription = 100
	MaxVersion     = 255
)

// namePattern is the registry's pattern for a server's name: a reverse-DNS
// namespace, one slash, the server's own name.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// Info is what a server.json says.
type Info struct {
	Name        string // reverse-DNS, "io.github.owner/repo"
	Description string // at most MaxDescription characters
	Version     string // the server's (semantic) version
	// URL, when set, is a remote: the server's Streamable HTTP endpoint.
	URL string
	// OCI, when set, is an image that serves MCP over stdio when run
	// with -stdio (runtime/serve's flag): "registry/owner/image:tag"; a
	// tag is the package's version, else Version is.
	OCI string
}

// document is server.json; field order is the registry's examples'.
type document struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Version     string   `json:"version"`
	Packages    []pkg    `json:"packages,omitempty"`
	Remotes     []remote `json:"remotes,omitempty"`
}

type pkg struct {
	RegistryType     string     `json:"registryType"`
	Identifier       string     `json:"identifier"`
	Version          string     `json:"version"`
	RuntimeHint      string     `json:"runtimeHint"`
	Transport        transport  `json:"transport"`
	PackageArguments []argument `json:"packageArguments"`
}

type transport struct {
	Type string `json:"type"`
}

type argument struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

type remote struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// Build returns the server.json of info, indented, or why the registry
// would refuse it.
func Build(info Info) ([]byte, error) {
	if err := checkName(info.Name); err != nil {
		return nil, err
	}
	if n := utf8.RuneCountInString(info.Description); n == 0 || n > MaxDescription {
		return nil, fmt.Errorf("the description must be 1 to %d characters (it is %d): give one with -server-description", MaxDescription, n)
	}
	if err := checkVersion("the version", info.Version); err != nil {
		return nil, err
	}
	if info.URL == "" && info.OCI == "" {
		return nil, fmt.Errorf("say how the server is reached: -server-url URL (its Streamable HTTP endpoint) and/or -server-oci IMAGE")
	}
	doc := document{Schema: SchemaURL, Name: info.Name, Description: info.Description, Version: info.Version}
	if info.OCI != "" {
		p, err := ociPackage(info.OCI, info.Version)
		if err != nil {
			return nil, err
		}
		doc.Packages = []pkg{p}
	}
	if info.URL != "" {
		u, err := url.Parse(info.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("-server-url %q: want an absolute http or https URL, the server's MCP endpoint", info.URL)
		}
		doc.Remotes = []remote{{Type: "streamable-http", URL: info.URL}}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func checkName(name string) error {
	if n := len(name); n < 3 || n > MaxName || !namePattern.MatchString(name) {
		return fmt.Errorf("the server name %q is not reverse-DNS (namespace/name, letters, digits, '.', '-' and '_', 3 to %d characters): give one with -server-name", name, MaxName)
	}
	return nil
}

// checkVersion refuses what the registry refuses: nothing, too long, or a
// range rather than one version.
func checkVersion(what, v string) error {
	switch {
	case v == "":
		return fmt.Errorf("%s is empty", what)
	case len(v) > MaxVersion:
		return fmt.Errorf("%s is longer than %d characters", what, MaxVersion)
	case v == "latest", strings.ContainsAny(v, "^~<>*= "), strings.HasSuffix(v, ".x"), strings.Contains(v, ".x."):
		return fmt.Errorf("%s %q is not one version (the registry refuses ranges and \"latest\")", what, v)
	}
	return nil
}

// ociPackage is the package of an image: its reference without the tag,
// the tag (else version) as the package's version, run over stdio with
// -stdio.
func ociPackage(image, version string) (pkg, error) {
	ref, tag := image, ""
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		ref, tag = image[:i], image[i+1:]
	}
	if strings.Contains(ref, "@") || ref == "" {
		return pkg{}, fmt.Errorf("-server-oci %q: want an image reference, registry/owner/image[:tag]", image)
	}
	if tag == "" {
		tag = version
	}
	if err := checkVersion("the image's tag", tag); err != nil {
		return pkg{}, err
	}
	return pkg{
		RegistryType: "oci", Identifier: ref, Version: tag, RuntimeHint: "docker",
		Transport:        transport{Type: "stdio"},
		PackageArguments: []argument{{Type: "named", Name: "-stdio"}},
	}, nil
}

// NameFromModule is a server's registry name from its Go module path:
// the host's labels reversed, then the path. A GitHub repository is
// io.github.OWNER/REPO, the registry's namespace for it; the path's
// further elements join the name with '-' (github.com/a/b/cmd/x is
// io.github.a/b-cmd-x). Characters the registry's name does not allow
// become '-'.
func NameFromModule(module string) (string, error) {
	parts := strings.Split(module, "/")
	host := parts[0]
	if !strings.Contains(host, ".") || len(parts) < 2 {
		if len(parts) == 1 && strings.Contains(host, ".") {
			parts = append(parts, strings.Split(host, ".")[0])
		} else {
			return "", fmt.Errorf("module path %q has no domain to make a reverse-DNS name of: give one with -server-name", module)
		}
	}
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	ns := strings.Join(labels, ".")
	if host == "github.com" {
		ns = "io.github" // the registry's namespace for GitHub (github.io's)
	}
	rest := parts[1:]
	if host == "github.com" || host == "gitlab.com" {
		if len(rest) < 2 {
			return "", fmt.Errorf("module path %q names no repository: give a name with -server-name", module)
		}
		ns += "." + rest[0]
		rest = rest[1:]
	}
	name := notNamespace.ReplaceAllString(ns, "-") + "/" + notName.ReplaceAllString(strings.Join(rest, "-"), "-")
	return name, checkName(name)
}

// The characters the registry's name does not allow, in its namespace and
// in its own part.
var (
	notNamespace = regexp.MustCompile(`[^a-zA-Z0-9.-]`)
	notName      = regexp.MustCompile(`[^a-zA-Z0-9._-]`)
)

// Description is a package's doc synopsis made to fit the registry: at
// most MaxDescription characters, cut at a word with "..." when longer.
func Description(synopsis string) string {
	s := strings.Join(strings.Fields(synopsis), " ")
	if utf8.RuneCountInString(s) <= MaxDescription {
		return s
	}
	r := []rune(s)[:MaxDescription-3]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > MaxDescription/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "..."
}
