// An echo agent with echo's body limit middleware at 1M, as its guide sets it
// (e.Use(middleware.BodyLimit("1M"))): echo answers a larger body 413 with its JSON error,
// {"message":"Request Entity Too Large"}. echo itself sets no limit.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o echo_app echo_app.go && ./echo_app PORT
//
// Built from Debian's golang-github-labstack-echo-dev; used by capture.ts only.
package main

import (
	"net/http"
	"os"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

func main() {
	e := echo.New()
	e.HideBanner = true
	e.Use(middleware.BodyLimit("1M"))
	e.POST("/agent", func(c echo.Context) error {
		var req map[string]interface{}
		if err := c.Bind(&req); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]interface{}{"replies": []map[string]string{{"type": "message", "text": "Hi! What can I get you?"}}})
	})
	e.HEAD("/", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	if err := e.Start("127.0.0.1:" + os.Args[1]); err != nil {
		panic(err)
	}
}
