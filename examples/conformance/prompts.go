package main

import (
	"context"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestSimplePrompt is a prompt without arguments.
//
//toolgen:prompt
func TestSimplePrompt(ctx context.Context, in struct{}) (string, error) {
	return "This is a simple prompt for testing.", nil
}

// PromptArgs are the two arguments of test_prompt_with_arguments.
type PromptArgs struct {
	// First test argument.
	Arg1 string `json:"arg1"`
	// Second test argument.
	Arg2 string `json:"arg2"`
}

// TestPromptWithArguments is a prompt with two required arguments.
//
//toolgen:prompt
func TestPromptWithArguments(ctx context.Context, in PromptArgs) (string, error) {
	return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2), nil
}

// EmbedArgs names the resource to embed.
type EmbedArgs struct {
	// URI of the resource to embed.
	ResourceURI string `json:"resourceUri"`
}

// TestPromptWithEmbeddedResource is a prompt that embeds a resource.
//
//toolgen:prompt
func TestPromptWithEmbeddedResource(ctx context.Context, in EmbedArgs) ([]runtime.PromptMessage, error) {
	return []runtime.PromptMessage{
		{Role: "user", Content: runtime.EmbeddedResource(runtime.ResourceContents{URI: in.ResourceURI, MIMEType: "text/plain", Text: "Embedded resource content for testing."})},
		runtime.UserMessage("Please process the embedded resource above."),
	}, nil
}

// TestPromptWithImage is a prompt with an image.
//
//toolgen:prompt
func TestPromptWithImage(ctx context.Context, in struct{}) ([]runtime.PromptMessage, error) {
	return []runtime.PromptMessage{
		{Role: "user", Content: runtime.Image(png, "image/png")},
		runtime.UserMessage("Please analyze the image above."),
	}, nil
}
