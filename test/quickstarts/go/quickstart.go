// Go quickstart: google.golang.org/api/calendar/v3 + golang.org/x/oauth2 against the local calendar service.
//
//	go get google.golang.org/api/calendar/v3 golang.org/x/oauth2
//	go run quickstart.go      (service: npm start -- --fixture fixtures/quickstarts.json)
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"golang.org/x/oauth2"
	"google.golang.org/api/calendar/v3"
	"google.golang.org/api/option"
)

func main() {
	ctx := context.Background()
	base := os.Getenv("CALENDAR_EMULATOR_URL")
	if base == "" {
		base = "http://127.0.0.1:8080"
	}

	// The OAuth helper URLs are configured apart from the API's endpoint.
	config := &oauth2.Config{
		ClientID:     "local-calendar-client",
		ClientSecret: "local-calendar-secret",
		Endpoint: oauth2.Endpoint{
			AuthURL:  base + "/oauth/authorize",
			TokenURL: base + "/oauth/token",
		},
		RedirectURL: "http://127.0.0.1:3000/oauth2callback",
		Scopes:      []string{"https://www.googleapis.com/auth/calendar.readonly"},
	}

	// 1. Consent: open the printed URL, pick a test user, approve; the service redirects the
	//    browser to this loopback server with the authorization code.
	listener, err := net.Listen("tcp", "127.0.0.1:3000")
	if err != nil {
		log.Fatal(err)
	}
	codes := make(chan string, 1)
	go http.Serve(listener, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/oauth2callback" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "Signed in. You can close this tab.")
		codes <- r.URL.Query().Get("code")
	}))
	fmt.Println("Open this URL in your browser:", config.AuthCodeURL("state-1", oauth2.AccessTypeOffline))
	code := <-codes
	listener.Close()
	if code == "" {
		log.Fatal(errors.New("consent refused"))
	}
	tok, err := config.Exchange(ctx, code)
	if err != nil {
		log.Fatal(err)
	}
	refreshed := "missing"
	if tok.RefreshToken != "" {
		refreshed = "received"
	}
	fmt.Printf("token: scope %v, refresh token %s\n", tok.Extra("scope"), refreshed)

	// 2. Refresh through the service's token endpoint: a token source holding only the refresh
	//    token asks for a new access token.
	source := config.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken})
	fresh, err := source.Token()
	if err != nil {
		log.Fatal(err)
	}
	if fresh.AccessToken != "" && fresh.AccessToken != tok.AccessToken {
		fmt.Println("refresh: new access token")
	} else {
		fmt.Println("refresh: FAILED")
	}

	// 3. The calendar API: WithEndpoint replaces the whole base path, so it includes /calendar/v3/.
	service, err := calendar.NewService(ctx,
		option.WithEndpoint(base+"/calendar/v3/"),
		option.WithTokenSource(source))
	if err != nil {
		log.Fatal(err)
	}
	events, err := service.Events.List("primary").
		TimeMin("2026-10-19T00:00:00+09:00").
		TimeMax("2026-10-20T00:00:00+09:00").
		SingleEvents(true).
		OrderBy("startTime").
		Do()
	if err != nil {
		log.Fatal(err)
	}
	for _, event := range events.Items {
		start := event.Start.DateTime
		if start == "" {
			start = event.Start.Date
		}
		fmt.Printf("event: %s %s\n", start, event.Summary)
	}

	// 4. Free/busy for the same day.
	freeBusy, err := service.Freebusy.Query(&calendar.FreeBusyRequest{
		TimeMin:  "2026-10-19T00:00:00+09:00",
		TimeMax:  "2026-10-20T00:00:00+09:00",
		TimeZone: "Asia/Tokyo",
		Items:    []*calendar.FreeBusyRequestItem{{Id: "primary"}},
	}).Do()
	if err != nil {
		log.Fatal(err)
	}
	for _, busy := range freeBusy.Calendars["primary"].Busy {
		fmt.Printf("busy: %s to %s\n", busy.Start, busy.End)
	}
}
