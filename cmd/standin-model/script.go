package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// The parts of a Chat Completions request the script reads.
type request struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // a string or an array of parts
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// handler answers POST /v1/chat/completions by the script.
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(io.LimitReader(r.Body, 16<<20)).Decode(&req); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
				"message": "standin-model: the request is not JSON: " + err.Error(), "type": "invalid_request_error"}})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(respond(&req))
	})
	return mux
}

// respond follows the script (see the package doc) and returns a Chat
// Completions response.
func respond(req *request) map[string]any {
	message := map[string]any{"role": "assistant"}
	finish := "stop"
	switch results, question := lastTurn(req); {
	case len(results) > 0:
		message["content"] = "The tools said: " + strings.Join(results, "; ")
	case len(req.Tools) > 0:
		var calls []map[string]any
		for i, c := range pickTools(req, question) {
			in, _ := json.Marshal(c.args)
			calls = append(calls, map[string]any{"id": fmt.Sprintf("call_standin_%d", i+1), "type": "function",
				"function": map[string]string{"name": c.name, "arguments": string(in)}})
		}
		message["tool_calls"] = calls
		finish = "tool_calls"
	default:
		message["content"] = "stand-in model: " + question
	}
	return map[string]any{
		"id": "chatcmpl-standin", "object": "chat.completion", "model": "standin-scripted",
		"choices": []map[string]any{{"index": 0, "message": message, "finish_reason": finish}},
	}
}

// lastTurn returns the tool results that end the conversation, if any,
// and the text of the last user message.
func lastTurn(req *request) (results []string, question string) {
	i := len(req.Messages)
	for i > 0 && req.Messages[i-1].Role == "tool" {
		i--
	}
	for _, m := range req.Messages[i:] {
		results = append(results, text(m.Content))
	}
	for j := len(req.Messages) - 1; j >= 0; j-- {
		if req.Messages[j].Role == "user" {
			return results, text(req.Messages[j].Content)
		}
	}
	return results, ""
}

// text is a message's content as text: the string, or its text parts.
func text(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	json.Unmarshal(content, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, " ")
}

var number = regexp.MustCompile(`-?\d+(\.\d+)?`)

// toolCall is a call the script makes: a tool and its arguments.
type toolCall struct {
	name string
	args map[string]any
}

// pickTools chooses the tools to call and their arguments: add or echo
// (or the first tool offered), and log as well when the question says
// "log" and a log tool is offered.
func pickTools(req *request, question string) []toolCall {
	var add, echo, log string
	for _, t := range req.Tools {
		switch n := t.Function.Name; {
		case add == "" && strings.HasSuffix(n, "__add"):
			add = n
		case echo == "" && strings.HasSuffix(n, "__echo"):
			echo = n
		case log == "" && strings.HasSuffix(n, "__log"):
			log = n
		}
	}
	var calls []toolCall
	if nums := number.FindAllString(question, 2); add != "" && len(nums) == 2 {
		var a, b float64
		fmt.Sscan(nums[0], &a)
		fmt.Sscan(nums[1], &b)
		calls = append(calls, toolCall{add, map[string]any{"a": a, "b": b}})
	} else if echo != "" {
		calls = append(calls, toolCall{echo, map[string]any{"text": question}})
	} else {
		calls = append(calls, toolCall{req.Tools[0].Function.Name, map[string]any{}})
	}
	if log != "" && wordLog.MatchString(question) {
		calls = append(calls, toolCall{log, map[string]any{"message": question}})
	}
	return calls
}

var wordLog = regexp.MustCompile(`(?i)\blog\b`)
