// A gin agent written the common way: the request bound with c.ShouldBindJSON into a struct whose
// message text is binding:"required", its error answered with 400. The validator refuses the
// photo request's text "", and gin answers its words: Key: '...' Error:Field validation for
// 'Text' failed on the 'required' tag.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o gin_app gin_app.go && ./gin_app PORT
//
// Built from Debian's golang-github-gin-gonic-gin-dev; used by capture.ts only.
package main

import (
	"net/http"
	"os"

	"github.com/gin-gonic/gin"
)

type Attachment struct {
	Kind string `json:"kind" binding:"required"`
	Mime string `json:"mime" binding:"required"`
	Name string `json:"name"`
	Data string `json:"data" binding:"required"`
}

type Message struct {
	Text        string       `json:"text" binding:"required"`
	Attachments []Attachment `json:"attachments"`
}

type AgentRequest struct {
	ConversationID string  `json:"conversationId" binding:"required"`
	MessageID      string  `json:"messageId" binding:"required"`
	Channel        string  `json:"channel" binding:"required"`
	Message        Message `json:"message" binding:"required"`
}

func main() {
	gin.SetMode(gin.ReleaseMode) // the mode changes the log only, not the answers
	router := gin.New()
	router.POST("/agent", func(c *gin.Context) {
		var req AgentRequest
		if err := c.ShouldBindJSON(&req); err != nil {
			c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
			return
		}
		c.JSON(http.StatusOK, gin.H{"replies": []gin.H{{"type": "message", "text": "Hi! What can I get you?"}}})
	})
	router.HEAD("/", func(c *gin.Context) { c.Status(http.StatusOK) })
	if err := router.Run("127.0.0.1:" + os.Args[1]); err != nil {
		panic(err)
	}
}
