// A Go agent written with net/http and encoding/json only, one route per way such agents are
// commonly written wrong, to capture what Go answers:
//
//	/null-buttons  a Reply struct without ,omitempty: "buttons":null, "image":null, ...
//	/nil-replies   a nil []Reply: {"replies":null}
//	/body-limit    http.MaxBytesReader at 1<<20, its error answered with http.Error(w, err.Error(), 400)
//	/strict        a decoder with DisallowUnknownFields, its error answered with http.Error(w, err.Error(), 400)
//	/naive         a decode error answered with http.Error(w, err.Error(), 500)
//	/text-plain    the JSON written with w.Write and no Content-Type (net/http sniffs it)
//
//	go build -o go_app go_app.go && ./go_app PORT
//
// Used by capture.ts only (CI does not build it).
package main

import (
	"encoding/json"
	"net/http"
	"os"
)

type Attachment struct {
	Kind string `json:"kind"`
	Mime string `json:"mime"`
	Name string `json:"name"`
	Data string `json:"data"`
}

type Choice struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type Message struct {
	Text        string       `json:"text"`
	Attachments []Attachment `json:"attachments"`
	Choice      *Choice      `json:"choice"`
}

type AgentRequest struct {
	ConversationID string  `json:"conversationId"`
	MessageID      string  `json:"messageId"`
	Channel        string  `json:"channel"`
	Message        Message `json:"message"`
}

type Image struct {
	URL string `json:"url"`
}

type Link struct {
	URL   string `json:"url"`
	Label string `json:"label"`
}

type Reply struct {
	Type    string   `json:"type"`
	Text    string   `json:"text"`
	Buttons []string `json:"buttons"`
	Link    *Link    `json:"link"`
	Image   *Image   `json:"image"`
	ReplyTo *string  `json:"replyTo"`
}

type Answer struct {
	Replies []Reply `json:"replies"`
}

func writeJSON(w http.ResponseWriter, answer Answer) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer)
}

func main() {
	http.HandleFunc("/null-buttons", func(w http.ResponseWriter, r *http.Request) {
		var req AgentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, Answer{Replies: []Reply{{Type: "message", Text: "We are open 8am to 6pm today."}}})
	})
	http.HandleFunc("/nil-replies", func(w http.ResponseWriter, r *http.Request) {
		var req AgentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var replies []Reply // nothing appended: a nil slice
		writeJSON(w, Answer{Replies: replies})
	})
	http.HandleFunc("/body-limit", func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		var req AgentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, Answer{Replies: []Reply{}})
	})
	http.HandleFunc("/strict", func(w http.ResponseWriter, r *http.Request) {
		decoder := json.NewDecoder(r.Body)
		decoder.DisallowUnknownFields()
		var req AgentRequest
		if err := decoder.Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, Answer{Replies: []Reply{}})
	})
	http.HandleFunc("/naive", func(w http.ResponseWriter, r *http.Request) {
		var req AgentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, Answer{Replies: []Reply{}})
	})
	http.HandleFunc("/text-plain", func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(map[string]any{"replies": []map[string]string{{"type": "message", "text": "We are open 8am to 6pm today."}}})
		w.Write(body)
	})
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {})
	if err := http.ListenAndServe("127.0.0.1:"+os.Args[1], nil); err != nil {
		panic(err)
	}
}
