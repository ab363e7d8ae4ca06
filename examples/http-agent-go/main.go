// The café's agent over the agent endpoint contract: Go 1.19+, the standard library only.
//
//	FAKE_MODEL=1 PORT=8080 go run .                      # no model, no network
//	OPENAI_API_KEY=sk-... MODEL=gpt-4o-mini go run .
//
// One POST /agent per person message, answered {"replies": [...]}. It keeps each conversation's
// history, acts on a messageId once, asks one model through any OpenAI-compatible Chat
// Completions API with two tools (opening_hours, place_order), and shapes every reply for its
// channel. Every place a port usually gets wrong is marked "PORTS:".
package main

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

var (
	port      = envOr("PORT", "8080")
	host      = envOr("HOST", "127.0.0.1")
	token     = os.Getenv("FLOW_FRAMEWORK_AGENT_TOKEN")
	fakeModel = os.Getenv("FAKE_MODEL") == "1"
	apiKey    = os.Getenv("OPENAI_API_KEY")
	baseURL   = envOr("OPENAI_BASE_URL", "https://api.openai.com/v1")
	model     = envOr("MODEL", "gpt-4o-mini")
	// The whole time one message may spend on the model, retries and tool rounds included: well
	// under the 60 s the platform (and check-endpoint) waits for an answer.
	budget = secondsOr("MODEL_BUDGET_SECONDS", 20)
)

const (
	// PORTS: the contract promises 7,000,000-byte bodies (a 5 MB photo as base64). net/http sets
	// no limit of its own; a port's http.MaxBytesReader of 1 MB (a common copy-paste) refuses photos.
	maxBodyBytes     = 7_000_000
	maxHistory       = 40   // messages kept per conversation (user and assistant)
	maxConversations = 1000 // the oldest conversation is dropped past this
	maxAnswers       = 200  // messageIds remembered per conversation, for redeliveries
	maxToolRounds    = 4

	apology      = "Sorry, I can't answer right now. Please try again in a minute."
	fakeGreeting = "Hi! This is the café. We're open 7am to 6pm today. What can I get you?"

	persona = "You are the assistant of a small café. You answer questions about the café, take orders " +
		"for pickup and keep answers short and friendly. Use the opening_hours tool for today's " +
		"hours. Before placing an order, confirm the items and the person's name, then call " +
		"place_order and give the person the order id."
)

var fakeChoices = []string{"Latte", "Cappuccino", "Tea"}

// What `check-endpoint limits CHANNEL --prompt` prints, byte for byte (a test compares them):
// regenerate them when the contract's limits change. A custom channel gets the web text.
var channelInstructions = map[string]string{
	"whatsapp": "You write the messages this agent sends on WhatsApp. WhatsApp renders *bold* (one * on " +
		"each side) and code fences (```); it shows **bold**, # headings, [label](url) links and " +
		"pipe tables as typed, so never write them. Keep each message under 700 characters, like " +
		"a chat bubble; split a longer answer into short paragraphs separated by a blank line, " +
		"each sent as its own message. A message over 4096 characters is not sent. Offer choices " +
		"as buttons (at most 3), each label at most 20 characters, the question above them at " +
		"most 1024 characters; more as a list of at most 10 rows, each row title at most 24 " +
		"characters.",
	"sms": "You write the messages this agent sends on SMS. SMS shows plain text only: write no " +
		"Markdown at all (**bold**, # headings, [label](url) links, pipe tables and code fences " +
		"(```) are shown as typed). Aim for one SMS segment: at most 160 characters of plain " +
		"text. One character outside the GSM-7 alphabet (such as — – ’ “ ” … • 😊) makes the " +
		"whole message UCS-2, where a segment holds only 70: write straight quotes, a plain " +
		"hyphen and three dots instead, and no emoji. A message over 1600 characters is not sent. " +
		"SMS shows no buttons or lists: write the options as a numbered list and ask the person " +
		"to answer with the number.",
	"imessage": "You write the messages this agent sends on iMessage. iMessage shows plain text only: " +
		"write no Markdown at all (**bold**, # headings, [label](url) links, pipe tables and code " +
		"fences (```) are shown as typed). Keep each message under 400 characters, like a chat " +
		"bubble; split a longer answer into short paragraphs separated by a blank line, each sent " +
		"as its own message. A message over 9999 characters is not sent. iMessage shows no " +
		"buttons or lists: write the options as a numbered list and ask the person to answer with " +
		"the number.",
	"telegram": "You write the messages this agent sends on Telegram. Telegram renders MarkdownV2: *bold* " +
		"(one * on each side), [label](url) links and code fences (```); it shows **bold**, # " +
		"headings and pipe tables as typed, so never write them. Keep each message under 900 " +
		"characters, like a chat bubble; split a longer answer into short paragraphs separated by " +
		"a blank line, each sent as its own message. A message over 4096 characters is not sent. " +
		"Offer choices as buttons (at most 100), the question above them at most 4096 characters; " +
		"no lists: for more choices, a numbered list the person answers by number.",
	"web": "You write the messages this agent sends on Web chat. Web chat renders **bold**, # " +
		"headings, [label](url) links, pipe tables and code fences (```). A message over 4096 " +
		"characters is not sent. Offer choices as buttons (at most 10), each label at most 40 " +
		"characters, the question above them at most 4096 characters; more as a list of at most " +
		"50 rows.",
}

var logger = log.New(os.Stderr, "", 0)

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func secondsOr(name string, fallback float64) time.Duration {
	seconds, err := strconv.ParseFloat(os.Getenv(name), 64)
	if err != nil || seconds <= 0 {
		seconds = fallback
	}
	return time.Duration(seconds * float64(time.Second))
}

// redact is a text with the secrets taken out, for the log (an error body may echo a key).
func redact(text string) string {
	for _, secret := range []string{token, apiKey} {
		if secret != "" {
			text = strings.ReplaceAll(text, secret, "***")
		}
	}
	return text
}

// ---------------------------------------------------------------------------------------------
// The answer. PORTS: every optional property has ,omitempty: without it encoding/json writes a
// nil slice or pointer as null, and "buttons": null is a schema error. And replies is never a
// nil slice: a nil slice marshals as null, an empty one ([]Reply{}) as [].
// ---------------------------------------------------------------------------------------------

type Reply struct {
	Type    string   `json:"type"`
	Text    string   `json:"text"`
	Buttons []string `json:"buttons,omitempty"` // a string button's id is its label
}

type Answer struct {
	Replies []Reply `json:"replies"`
}

// ---------------------------------------------------------------------------------------------
// The request: validated by hand against spec/request.schema.json, decoded into maps so that
// every field the contract adds later is simply not read.
// PORTS: a body that is not a request gets 400 naming the field, never a 5xx or a dropped
// connection; unknown fields anywhere are ignored (never DisallowUnknownFields on the request:
// the contract adds fields over time). `null` is not "left out": the schema refuses
// "choice": null, and so do we.
// ---------------------------------------------------------------------------------------------

var (
	channelName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`) // RE2's $ is the end of the text
	base64Data  = regexp.MustCompile(`^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	kinds       = []string{"image", "audio", "video", "document"}
)

func stringProblem(value any, name string, minLength, maxLength int) string {
	text, ok := value.(string)
	if !ok {
		return name + " must be a string"
	}
	length := utf8.RuneCountInString(text) // code points, as JSON Schema counts
	if length < minLength {
		return name + " must not be empty"
	}
	if maxLength > 0 && length > maxLength {
		return fmt.Sprintf("%s is %d characters long; at most %d", name, length, maxLength)
	}
	return ""
}

func objectProblem(value any, name string, required ...string) (map[string]any, string) {
	object, ok := value.(map[string]any)
	if !ok {
		return nil, name + " must be an object"
	}
	for _, field := range required {
		if _, present := object[field]; !present {
			return nil, strings.TrimPrefix(name+"."+field, "the body.") + " is required"
		}
	}
	return object, ""
}

func firstProblem(problems ...string) string {
	for _, problem := range problems {
		if problem != "" {
			return problem
		}
	}
	return ""
}

func oneOf(value any, allowed ...string) bool {
	text, _ := value.(string)
	for _, candidate := range allowed {
		if text == candidate {
			return true
		}
	}
	return false
}

// requestProblem is what is wrong with a request body, naming the field; "" when it is a request.
func requestProblem(decoded any) string {
	body, problem := objectProblem(decoded, "the body", "conversationId", "messageId", "channel", "message")
	if problem != "" {
		return problem
	}
	if problem := firstProblem(
		stringProblem(body["conversationId"], "conversationId", 1, 200),
		stringProblem(body["messageId"], "messageId", 1, 200),
		stringProblem(body["channel"], "channel", 0, 0),
	); problem != "" {
		return problem
	}
	if !channelName.MatchString(body["channel"].(string)) {
		return "channel must be whatsapp, sms, imessage, telegram, web or a name matching ^[a-z][a-z0-9_-]{0,31}$"
	}
	message, problem := objectProblem(body["message"], "message", "text")
	if problem = firstProblem(problem, stringProblem(message["text"], "message.text", 0, 0)); problem != "" {
		return problem
	}
	if value, present := message["attachments"]; present {
		attachments, ok := value.([]any)
		if !ok {
			return "message.attachments must be an array"
		}
		for index, item := range attachments {
			where := fmt.Sprintf("message.attachments[%d]", index)
			attachment, problem := objectProblem(item, where, "kind", "mime", "name", "data")
			if problem = firstProblem(problem,
				stringProblem(attachment["mime"], where+".mime", 1, 0),
				stringProblem(attachment["name"], where+".name", 0, 0),
				stringProblem(attachment["data"], where+".data", 0, 0),
			); problem != "" {
				return problem
			}
			if !oneOf(attachment["kind"], kinds...) {
				return where + ".kind must be one of " + strings.Join(kinds, ", ")
			}
			if data := attachment["data"].(string); len(data)%4 != 0 || !base64Data.MatchString(data) {
				return where + ".data must be base64 (RFC 4648, with padding)"
			}
		}
	}
	if value, present := message["choice"]; present {
		choice, problem := objectProblem(value, "message.choice", "id", "title")
		if problem = firstProblem(problem,
			stringProblem(choice["id"], "message.choice.id", 1, 0),
			stringProblem(choice["title"], "message.choice.title", 0, 0),
		); problem != "" {
			return problem
		}
	}
	if value, present := message["replyTo"]; present {
		quoted, problem := objectProblem(value, "message.replyTo", "messageId", "from", "text")
		if problem = firstProblem(problem,
			stringProblem(quoted["messageId"], "message.replyTo.messageId", 1, 0),
			stringProblem(quoted["text"], "message.replyTo.text", 0, 0),
		); problem != "" {
			return problem
		}
		if !oneOf(quoted["from"], "agent", "person") {
			return `message.replyTo.from must be "agent" or "person"`
		}
	}
	return ""
}

// decodeRequest is the body as JSON values, or why it is not JSON.
func decodeRequest(raw []byte) (any, error) {
	if !utf8.Valid(raw) { // encoding/json would quietly turn bad bytes into U+FFFD
		return nil, errors.New("it is not UTF-8")
	}
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber() // a number too large for float64 in a field we do not read is still JSON
	var body any
	if err := decoder.Decode(&body); err != nil {
		return nil, err
	}
	if _, err := decoder.Token(); err != io.EOF {
		return nil, errors.New("there is more after the JSON value")
	}
	return body, nil
}

// ---------------------------------------------------------------------------------------------
// Conversations: history and the messageIds already acted on, in memory and bounded.
// ---------------------------------------------------------------------------------------------

type chatMessage struct {
	Role       string          `json:"role"`
	Content    *string         `json:"content"` // null on an assistant message that only calls tools
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

func text(value string) *string { return &value }

type conversation struct {
	history  []chatMessage
	answers  map[string][]Reply // messageId -> the replies given; nil while in progress
	answered []string           // the messageIds in the order they came, to forget the oldest
	lastUsed uint64
}

type conversations struct {
	mu    sync.Mutex // held only for map work, never across a model call
	byID  map[string]*conversation
	clock uint64
}

var store = conversations{byID: map[string]*conversation{}}

// begin returns the conversation, a copy of its history, and the answer already given to this
// messageId (ok false: act on it now).
func (s *conversations) begin(conversationID, messageID string) (*conversation, []chatMessage, []Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	c := s.byID[conversationID]
	if c == nil {
		c = &conversation{answers: map[string][]Reply{}}
		s.byID[conversationID] = c
		if len(s.byID) > maxConversations {
			s.forgetOldest()
		}
	}
	c.lastUsed = s.clock
	history := append([]chatMessage(nil), c.history...)
	// PORTS: platforms redeliver a message they saw no answer to (a timeout, a network error).
	// Act on a messageId once: a redelivery gets the first answer again, without the model; a
	// copy arriving while the first is still in progress gets [] (the first answer is on its
	// way). Mark it before the model call, not after, or both copies call the model.
	if earlier, seen := c.answers[messageID]; seen {
		return c, history, append([]Reply{}, earlier...), true
	}
	c.answers[messageID] = nil
	c.answered = append(c.answered, messageID)
	if len(c.answered) > maxAnswers {
		delete(c.answers, c.answered[0])
		c.answered = c.answered[1:]
	}
	return c, history, nil, false
}

func (s *conversations) forgetOldest() {
	var oldestID string
	var oldest uint64
	for id, c := range s.byID {
		if oldestID == "" || c.lastUsed < oldest {
			oldestID, oldest = id, c.lastUsed
		}
	}
	delete(s.byID, oldestID)
}

func (s *conversations) finish(c *conversation, messageID string, replies []Reply, userText, replyText string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, remembered := c.answers[messageID]; remembered {
		c.answers[messageID] = replies
	}
	c.history = append(c.history, chatMessage{Role: "user", Content: text(userText)})
	if replyText != "" {
		c.history = append(c.history, chatMessage{Role: "assistant", Content: text(replyText)})
	}
	if len(c.history) > maxHistory {
		c.history = append([]chatMessage(nil), c.history[len(c.history)-maxHistory:]...)
	}
}

// ---------------------------------------------------------------------------------------------
// The model: Chat Completions, two tools, one retry, all within the budget.
// ---------------------------------------------------------------------------------------------

var tools = json.RawMessage(`[
	{"type": "function", "function": {
		"name": "opening_hours", "description": "Today's opening hours of the café.",
		"parameters": {"type": "object", "properties": {}}}},
	{"type": "function", "function": {
		"name": "place_order", "description": "Place a pickup order once the person confirmed it.",
		"parameters": {"type": "object", "required": ["items", "name"], "properties": {
			"items": {"type": "array", "items": {"type": "string"}, "description": "e.g. large oat latte"},
			"name": {"type": "string", "description": "the name the order is called out for"}}}}}
]`)

var orderNumbers = struct {
	sync.Mutex
	next int
}{next: 1001}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// runTool is one tool call's result; a bad call gets an error result the model can read.
func runTool(call toolCall) map[string]any {
	// PORTS: `arguments` is a JSON *string* ("{\"items\": [\"latte\"]}"), not an object: decode
	// the string, then the JSON inside it.
	var argumentsText string
	if len(call.Function.Arguments) > 0 && json.Unmarshal(call.Function.Arguments, &argumentsText) != nil {
		return map[string]any{"error": "the arguments must be a JSON string holding an object"}
	}
	if strings.TrimSpace(argumentsText) == "" {
		argumentsText = "{}"
	}
	var arguments map[string]any
	if err := json.Unmarshal([]byte(argumentsText), &arguments); err != nil || arguments == nil {
		return map[string]any{"error": "the arguments are not a JSON object; call the tool again with a JSON object"}
	}
	switch call.Function.Name {
	case "opening_hours":
		return map[string]any{"today": "7:00-18:00"}
	case "place_order":
		items, _ := arguments["items"].([]any)
		if len(items) == 0 {
			return map[string]any{"error": "items must be a non-empty list of strings"}
		}
		for _, item := range items {
			if name, ok := item.(string); !ok || name == "" {
				return map[string]any{"error": "items must be a non-empty list of strings"}
			}
		}
		if name, _ := arguments["name"].(string); strings.TrimSpace(name) == "" {
			return map[string]any{"error": "name must be the person's name"}
		}
		orderNumbers.Lock()
		id := orderNumbers.next
		orderNumbers.next++
		orderNumbers.Unlock()
		return map[string]any{"orderId": fmt.Sprintf("A-%d", id)}
	}
	return map[string]any{"error": fmt.Sprintf("there is no tool named %q", call.Function.Name)}
}

type chatRequest struct {
	Model    string          `json:"model"`
	Messages []chatMessage   `json:"messages"`
	Tools    json.RawMessage `json:"tools"`
}

type chatAnswer struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

// modelError is a failed model call; retryAfter is a 429's retry-after, when it gave one.
type modelError struct {
	problem    string
	retryAfter time.Duration
}

func (e *modelError) Error() string { return e.problem }

var client = &http.Client{}

// postChat is one Chat Completions call, bounded by the deadline; its answer's choices[0].message.
func postChat(messages []chatMessage, deadline time.Time) (chatMessage, error) {
	payload, err := json.Marshal(chatRequest{Model: model, Messages: messages, Tools: tools})
	if err != nil {
		return chatMessage{}, err
	}
	// The context bounds the whole call, the answer's body included.
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+"/chat/completions", bytes.NewReader(payload))
	if err != nil {
		return chatMessage{}, err
	}
	request.Header.Set("content-type", "application/json")
	if apiKey != "" { // a local server (Ollama, vLLM) may need none
		request.Header.Set("authorization", "Bearer "+apiKey)
	}
	response, err := client.Do(request)
	if err != nil {
		return chatMessage{}, err
	}
	defer response.Body.Close()
	body, err := io.ReadAll(io.LimitReader(response.Body, 10<<20))
	if err != nil {
		return chatMessage{}, err
	}
	if response.StatusCode != http.StatusOK {
		failure := &modelError{problem: fmt.Sprintf("HTTP %d", response.StatusCode)}
		var detail struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if response.StatusCode != 401 && response.StatusCode != 403 && json.Unmarshal(body, &detail) == nil && detail.Error.Message != "" {
			failure.problem += " " + truncate(detail.Error.Message, 200)
		}
		if response.StatusCode == http.StatusTooManyRequests {
			failure.retryAfter = time.Second
			if seconds, err := strconv.ParseFloat(response.Header.Get("retry-after"), 64); err == nil && seconds >= 0 {
				failure.retryAfter = time.Duration(seconds * float64(time.Second))
			}
		}
		return chatMessage{}, failure
	}
	var answer chatAnswer
	if err := json.Unmarshal(body, &answer); err != nil {
		return chatMessage{}, fmt.Errorf("the answer is not Chat Completions JSON: %w", err)
	}
	if len(answer.Choices) == 0 {
		return chatMessage{}, errors.New("the answer has no choices[0].message")
	}
	return answer.Choices[0].Message, nil
}

// askModel is postChat, retried once when it fails and the budget allows (a 429's retry-after included).
func askModel(messages []chatMessage, deadline time.Time) (chatMessage, error) {
	for attempt := 1; ; attempt++ {
		message, err := postChat(messages, deadline)
		if err == nil {
			return message, nil
		}
		wait := 200 * time.Millisecond
		var failure *modelError
		if errors.As(err, &failure) && failure.retryAfter > 0 {
			wait = failure.retryAfter
		}
		retry := attempt == 1 && time.Now().Add(wait+100*time.Millisecond).Before(deadline)
		if retry {
			logger.Print(redact(fmt.Sprintf("model error (%v); retrying in %.1f s", err, wait.Seconds())))
			time.Sleep(wait)
			continue
		}
		logger.Print(redact(fmt.Sprintf("model error (%v)", err)))
		return chatMessage{}, err
	}
}

// modelReply is the model's final text for one message: tool rounds run, at most maxToolRounds.
func modelReply(channel string, history []chatMessage, userText string, deadline time.Time) (string, error) {
	instructions, known := channelInstructions[channel]
	if !known {
		instructions = channelInstructions["web"]
	}
	messages := []chatMessage{{Role: "system", Content: text(persona + "\n\n" + instructions)}}
	messages = append(messages, history...)
	messages = append(messages, chatMessage{Role: "user", Content: text(userText)})
	for round := 0; round <= maxToolRounds; round++ {
		message, err := askModel(messages, deadline)
		if err != nil {
			return "", err
		}
		var calls []toolCall
		if len(message.ToolCalls) > 0 && string(message.ToolCalls) != "null" {
			if err := json.Unmarshal(message.ToolCalls, &calls); err != nil {
				return "", fmt.Errorf("tool_calls is not a list of calls: %w", err)
			}
		}
		if len(calls) == 0 {
			if message.Content == nil {
				return "", nil
			}
			return strings.TrimSpace(*message.Content), nil
		}
		// The assistant message goes back with its tool_calls as sent, then one tool message
		// per call, under that call's id; then the model is asked again.
		messages = append(messages, chatMessage{Role: "assistant", Content: message.Content, ToolCalls: message.ToolCalls})
		for _, call := range calls {
			result, _ := json.Marshal(runTool(call))
			messages = append(messages, chatMessage{Role: "tool", ToolCallID: call.ID, Content: text(string(result))})
		}
	}
	return "", fmt.Errorf("still calling tools after %d rounds", maxToolRounds)
}

func truncate(value string, runes int) string {
	characters := []rune(value)
	if len(characters) <= runes {
		return value
	}
	return string(characters[:runes])
}

// userTextOf is the person's message as the model reads it: files and taps said in words.
func userTextOf(message map[string]any) string {
	var parts []string
	if quoted, ok := message["replyTo"].(map[string]any); ok {
		who := "their own"
		if quoted["from"] == "agent" {
			who = "your"
		}
		quotedText, _ := quoted["text"].(string)
		parts = append(parts, fmt.Sprintf("[quoting %s message: %q]", who, truncate(quotedText, 300)))
	}
	attachments, _ := message["attachments"].([]any)
	for _, item := range attachments {
		attachment, _ := item.(map[string]any)
		kind, _ := attachment["kind"].(string)
		switch kind {
		case "image":
			kind = "photo"
		case "audio":
			kind = "voice note"
		}
		parts = append(parts, fmt.Sprintf("[the person sent a %s]", kind))
	}
	if choice, ok := message["choice"].(map[string]any); ok {
		title, _ := choice["title"].(string)
		parts = append(parts, fmt.Sprintf("[the person tapped %q]", title))
	}
	if typed, _ := message["text"].(string); typed != "" {
		parts = append(parts, typed)
	}
	if len(parts) == 0 {
		return "[an empty message]"
	}
	return strings.Join(parts, "\n")
}

// ---------------------------------------------------------------------------------------------
// Shaping a reply for its channel: Markdown only where it renders, buttons only where they
// show, SMS in GSM-7 single segments, a long text as a few chat bubbles, never over the hard limit.
// ---------------------------------------------------------------------------------------------

var (
	bold      = regexp.MustCompile(`\*\*([^\s*](?:[^*\n]*?[^\s*])?)\*\*`)
	heading   = regexp.MustCompile(`(?m)^ {0,3}#{1,6}[ \t]+(\S.*?)[ \t#]*$`)
	link      = regexp.MustCompile(`\[([^\[\]\n]+)\]\(((?:https?://|mailto:|www\.)[^\s)]*)\)`)
	tableRule = regexp.MustCompile(`^ {0,3}\|? *:?-+:? *(?:\| *:?-+:? *)+\|? *$`)
	fence     = regexp.MustCompile("(?m)^ {0,3}(?:`{3,}|~{3,}).*\n?")
	spaces    = regexp.MustCompile(` {2,}`)
)

// replaceGroups replaces each match of re with what replace makes of its groups.
func replaceGroups(re *regexp.Regexp, text string, replace func(groups []string) string) string {
	var out strings.Builder
	last := 0
	for _, match := range re.FindAllStringSubmatchIndex(text, -1) {
		groups := make([]string, len(match)/2)
		for i := range groups {
			if match[2*i] >= 0 {
				groups[i] = text[match[2*i]:match[2*i+1]]
			}
		}
		out.WriteString(text[last:match[0]])
		out.WriteString(replace(groups))
		last = match[1]
	}
	out.WriteString(text[last:])
	return out.String()
}

func linkAsText(groups []string) string {
	if groups[1] == groups[2] {
		return groups[2]
	}
	return groups[1] + ": " + groups[2]
}

func headingAsBold(groups []string) string {
	return "*" + strings.Trim(strings.ReplaceAll(groups[1], "**", ""), "*") + "*"
}

// withoutTables writes pipe tables as one line per row ("Latte: $5"), the |---| rule dropped.
func withoutTables(text string) string {
	row := func(line string) string {
		var cells []string
		for _, cell := range strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|") {
			if cell = strings.TrimSpace(cell); cell != "" {
				cells = append(cells, cell)
			}
		}
		return strings.Join(cells, ": ")
	}
	lines := strings.Split(text, "\n")
	var out []string
	inTable := false
	for index, line := range lines {
		if tableRule.MatchString(line) && index > 0 && strings.Contains(lines[index-1], "|") {
			inTable, out[len(out)-1] = true, row(lines[index-1])
			continue
		}
		inTable = inTable && strings.Contains(line, "|")
		if inTable {
			line = row(line)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// plain is the text with no Markdown at all (SMS, iMessage).
func plain(text string) string {
	text = bold.ReplaceAllString(text, "$1")
	text = replaceGroups(heading, text, func(groups []string) string { return strings.Trim(groups[1], "*") })
	text = replaceGroups(link, text, linkAsText)
	return fence.ReplaceAllString(withoutTables(text), "")
}

// whatsappMarkdown keeps *bold* and code fences; no headings, tables or [label](url).
func whatsappMarkdown(text string) string {
	text = replaceGroups(heading, bold.ReplaceAllString(text, "*$1*"), headingAsBold)
	return withoutTables(replaceGroups(link, text, linkAsText))
}

// telegramMarkdown keeps *bold*, links and code fences; no headings or tables.
func telegramMarkdown(text string) string {
	return withoutTables(replaceGroups(heading, bold.ReplaceAllString(text, "*$1*"), headingAsBold))
}

const (
	gsm7Basic     = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
	gsm7Extension = "\f^{}\\[~]|€" // two septets each
)

var smsLookalikes = map[rune]string{'’': "'", '‘': "'", '“': `"`, '”': `"`, '—': "-", '–': "-", '…': "...", '•': "-", '\t': " ", '\u00a0': " "}

// Letters with an accent GSM-7 lacks, and the letter without it. (The standard library has no
// Unicode decomposition; golang.org/x/text/unicode/norm's NFKD would cover every letter.)
var accentFolds = strings.NewReplacer(
	"á", "a", "â", "a", "ã", "a", "ā", "a", "ç", "c", "ê", "e", "ë", "e", "ē", "e", "í", "i", "î", "i", "ï", "i",
	"ó", "o", "ô", "o", "õ", "o", "ú", "u", "û", "u", "ý", "y", "ÿ", "y", "Á", "A", "Â", "A", "À", "A", "Ã", "A",
	"È", "E", "Ê", "E", "Ë", "E", "Í", "I", "Ì", "I", "Î", "I", "Ó", "O", "Ò", "O", "Ô", "O", "Õ", "O", "Ú", "U", "Ù", "U", "Û", "U",
)

// gsm7 is the text in GSM-7 only: one character outside it makes the SMS UCS-2 (70 a segment).
func gsm7(text string) string {
	var out strings.Builder
	for _, char := range accentFolds.Replace(text) {
		if lookalike, ok := smsLookalikes[char]; ok {
			out.WriteString(lookalike)
		} else if strings.ContainsRune(gsm7Basic, char) || strings.ContainsRune(gsm7Extension, char) {
			out.WriteRune(char)
		} // what has no GSM-7 form (emoji, joiners, other scripts) is dropped
	}
	return spaces.ReplaceAllString(out.String(), " ")
}

func septets(text string) int {
	count := 0
	for _, char := range text {
		count++
		if strings.ContainsRune(gsm7Extension, char) {
			count++
		}
	}
	return count
}

func utf16Units(text string) int { // Telegram counts UTF-16 code units
	count := 0
	for _, char := range text {
		count++
		if char > 0xFFFF {
			count++
		}
	}
	return count
}

// platform is what shaping needs of a channel's limits (x-platforms in
// spec/agent-endpoint.openapi.yaml; `check-endpoint limits CHANNEL`). bubble is the soft length
// (sms: one segment), else the hard limit; buttons is how many show; 0 means no limit.
type platform struct {
	markdown   func(string) string
	bubble     int
	measure    func(string) int
	buttons    int
	label      int
	labelBytes int
}

var platforms = map[string]platform{
	"whatsapp": {markdown: whatsappMarkdown, bubble: 700, measure: utf8.RuneCountInString, buttons: 3, label: 20},
	"sms":      {markdown: plain, bubble: 160, measure: septets},
	"imessage": {markdown: plain, bubble: 400, measure: utf8.RuneCountInString},
	"telegram": {markdown: telegramMarkdown, bubble: 900, measure: utf16Units, buttons: 100, labelBytes: 64},
	"web":      {markdown: func(text string) string { return text }, bubble: 4096, measure: utf8.RuneCountInString, buttons: 10, label: 40},
}

// A way to cut a text into parts, and what joins two parts again.
type cut struct {
	split  func(string) []string
	joiner string
}

var (
	paragraphBreak = regexp.MustCompile(`\n[ \t]*\n\s*`)
	lineBreak      = regexp.MustCompile(`\n\s*`)
	sentenceEnd    = regexp.MustCompile(`[.!?…]\s+`) // RE2 has no lookbehind: the mark is kept below
	wordBreak      = regexp.MustCompile(`\s+`)
)

func splitAfterMark(text string) []string {
	var parts []string
	last := 0
	for _, match := range sentenceEnd.FindAllStringIndex(text, -1) {
		_, mark := utf8.DecodeRuneInString(text[match[0]:])
		parts = append(parts, text[last:match[0]+mark])
		last = match[1]
	}
	return append(parts, text[last:])
}

// Where a bubble may end, best first: a paragraph break, a line break, a sentence end, a word end.
var cuts = []cut{
	{func(text string) []string { return paragraphBreak.Split(text, -1) }, "\n\n"},
	{func(text string) []string { return lineBreak.Split(text, -1) }, "\n"},
	{splitAfterMark, " "},
	{func(text string) []string { return wordBreak.Split(text, -1) }, " "},
}

// bubbles is the text cut into bubbles of at most limit (in the platform's unit), short ones joined.
func bubbles(text string, limit int, measure func(string) int, level int) []string {
	text = strings.TrimSpace(text)
	if measure(text) <= limit {
		if text == "" {
			return nil
		}
		return []string{text}
	}
	if level == len(cuts) { // one word longer than a bubble: cut it where it must be
		characters := []rune(text)
		end := 1
		for end < len(characters) && measure(string(characters[:end+1])) <= limit {
			end++
		}
		return append([]string{string(characters[:end])}, bubbles(string(characters[end:]), limit, measure, level)...)
	}
	var out []string
	for _, part := range cuts[level].split(text) {
		for _, piece := range bubbles(part, limit, measure, level+1) {
			if n := len(out); n > 0 && measure(out[n-1]+cuts[level].joiner+piece) <= limit {
				out[n-1] += cuts[level].joiner + piece
			} else {
				out = append(out, piece)
			}
		}
	}
	return out
}

// shape is the replies that carry text (and choices as buttons, where they show) on a channel.
func shape(channel, text string, choices []string) []Reply {
	p, known := platforms[channel]
	if !known { // a custom channel: the schema only
		p = platforms["web"]
	}
	text = p.markdown(text)
	var labels []string // a string button's id is its label: keep them unique
	for _, choice := range choices {
		if !containsString(labels, choice) {
			labels = append(labels, choice)
		}
	}
	fits := len(labels) > 0 && len(labels) <= p.buttons
	for _, label := range labels {
		if (p.label > 0 && utf8.RuneCountInString(label) > p.label) || (p.labelBytes > 0 && len(label) > p.labelBytes) {
			fits = false
		}
	}
	if len(labels) > 0 && !fits { // SMS, iMessage (or too many): the options as a numbered list
		var list []string
		for n, label := range labels {
			list = append(list, fmt.Sprintf("%d. %s", n+1, label))
		}
		text += "\n\n" + strings.Join(list, "\n") + "\n\nReply with the number."
		labels = nil
	}
	if channel == "sms" {
		text = gsm7(text)
	}
	replies := []Reply{} // PORTS: [] when there is nothing to say, never nil (null)
	for _, part := range bubbles(text, p.bubble, p.measure, 0) {
		replies = append(replies, Reply{Type: "message", Text: part})
	}
	// Buttons go on the last bubble only; left nil (so left out) everywhere else.
	if len(labels) > 0 && len(replies) > 0 {
		replies[len(replies)-1].Buttons = labels
	}
	return replies
}

func containsString(list []string, value string) bool {
	for _, item := range list {
		if item == value {
			return true
		}
	}
	return false
}

// repliesFor is the replies to one request, the user's text for the history, and the reply text for it.
func repliesFor(channel string, message map[string]any, history []chatMessage) ([]Reply, string, string) {
	userText := userTextOf(message)
	if fakeModel { // a fixed reply, no network: the check runs anywhere
		if choice, ok := message["choice"].(map[string]any); ok {
			title, _ := choice["title"].(string)
			reply := fmt.Sprintf("Good choice: one %s. Anything else?", title)
			return shape(channel, reply, nil), userText, reply
		}
		return shape(channel, fakeGreeting, fakeChoices), userText, fakeGreeting
	}
	reply, err := modelReply(channel, history, userText, time.Now().Add(budget))
	if err != nil {
		// PORTS: the person gets a short apology and the error goes to the log. A 5xx would
		// make the platform retry or drop the message, and the person hears nothing.
		logger.Print(redact("model gave up: " + err.Error()))
		return shape(channel, apology, nil), userText, ""
	}
	return shape(channel, reply, nil), userText, reply
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

type errorBody struct {
	Error string `json:"error"`
}

// answer writes one JSON answer; a HEAD gets the headers only.
func answer(w http.ResponseWriter, r *http.Request, status int, body any) {
	data := []byte{}
	if body != nil {
		data, _ = json.Marshal(body) // our own types only: it cannot fail
	}
	w.Header().Set("content-type", "application/json")
	w.Header().Set("content-length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// loggedWriter remembers the status, for the log line.
type loggedWriter struct {
	http.ResponseWriter
	status int
}

func (w *loggedWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// withLog logs one line per request: the method, the path (never the query: it may hold a
// secret), the status and the time taken.
func withLog(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		started := time.Now()
		logged := &loggedWriter{ResponseWriter: w, status: http.StatusOK}
		next(logged, r)
		logger.Printf("%s %s %d %dms", r.Method, r.URL.Path, logged.status, time.Since(started).Milliseconds())
	}
}

func handle(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/agent" {
		answer(w, r, http.StatusNotFound, errorBody{"no such path: use POST /agent"})
		return
	}
	switch r.Method {
	// PORTS: check-endpoint (like many uptime probes) sends HEAD first. Answer it without
	// reading or decoding a body: a handler that decodes every body as JSON fails here.
	case http.MethodHead:
		answer(w, r, http.StatusOK, nil)
	case http.MethodPost:
		handleMessage(w, r)
	default:
		w.Header().Set("allow", "POST, HEAD")
		answer(w, r, http.StatusMethodNotAllowed, errorBody{r.Method + " is not allowed: use POST"})
	}
}

func handleMessage(w http.ResponseWriter, r *http.Request) {
	expected := "Bearer " + token
	if token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("authorization")), []byte(expected)) != 1 {
		w.Header().Set("www-authenticate", "Bearer")
		answer(w, r, http.StatusUnauthorized, errorBody{"missing or wrong bearer token"})
		return
	}
	// PORTS: MaxBytesReader at the contract's 7,000,000 bytes, not the 1 MB of many examples;
	// past it, 413 saying the limit (a 400 would read as "your request is malformed").
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		answer(w, r, http.StatusRequestEntityTooLarge, errorBody{fmt.Sprintf("the body is over %d bytes", maxBodyBytes)})
		return
	}
	if err != nil {
		answer(w, r, http.StatusBadRequest, errorBody{"the body could not be read: " + err.Error()})
		return
	}
	decoded, err := decodeRequest(raw)
	if err != nil {
		answer(w, r, http.StatusBadRequest, errorBody{"the body is not JSON: " + truncate(err.Error(), 120)})
		return
	}
	if problem := requestProblem(decoded); problem != "" {
		answer(w, r, http.StatusBadRequest, errorBody{problem})
		return
	}
	body := decoded.(map[string]any) // requestProblem checked every field read below
	conversationID, messageID, channel := body["conversationId"].(string), body["messageId"].(string), body["channel"].(string)
	message := body["message"].(map[string]any)
	c, history, earlier, seen := store.begin(conversationID, messageID)
	if seen {
		answer(w, r, http.StatusOK, Answer{Replies: earlier})
		return
	}
	replies, userText, replyText := safeRepliesFor(channel, message, history)
	store.finish(c, messageID, replies, userText, replyText)
	answer(w, r, http.StatusOK, Answer{Replies: replies})
}

// safeRepliesFor is repliesFor, with a bug of ours still answered as something the person can
// read, never a 5xx.
func safeRepliesFor(channel string, message map[string]any, history []chatMessage) (replies []Reply, userText, replyText string) {
	defer func() {
		if failure := recover(); failure != nil {
			logger.Print(redact(fmt.Sprintf("answering failed: %v", failure)))
			replies, userText, replyText = shape(channel, apology, nil), userTextOf(message), ""
		}
	}()
	return repliesFor(channel, message, history)
}

func main() {
	listener, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		logger.Fatalf("cannot listen on %s: %v", net.JoinHostPort(host, port), err)
	}
	mode := "FAKE_MODEL=1 (no model calls)"
	if !fakeModel {
		where := baseURL
		if parsed, err := url.Parse(baseURL); err == nil {
			where = parsed.Hostname()
		}
		mode = fmt.Sprintf("model %s at %s", model, where)
	}
	required := "NOT required (set FLOW_FRAMEWORK_AGENT_TOKEN)"
	if token != "" {
		required = "required"
	}
	logger.Printf("café agent on http://%s/agent, %s, token %s", listener.Addr(), mode, required)
	if !fakeModel && apiKey == "" {
		logger.Print("OPENAI_API_KEY is not set: fine for a local server that needs no key; else every answer is the apology")
	}
	server := &http.Server{
		Handler:           withLog(handle),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          logger,
	}
	logger.Fatal(server.Serve(listener))
}
