// Java quickstart: google-api-client (GoogleAuthorizationCodeFlow) + google-http-client against the
// local calendar service, with the generic request factory (google-api-services-calendar is
// not needed; with it, use new Calendar.Builder(...).setRootUrl(BASE + "/").setServicePath("calendar/v3/")).
//   Libraries: com.google.api-client:google-api-client, com.google.http-client:google-http-client-gson
//   java -cp <those jars and their dependencies> Quickstart.java
//   (service: npm start -- --fixture fixtures/quickstarts.json)
import com.google.api.client.auth.oauth2.AuthorizationCodeResponseUrl;
import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.googleapis.auth.oauth2.GoogleAuthorizationCodeFlow;
import com.google.api.client.googleapis.auth.oauth2.GoogleTokenResponse;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequestFactory;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.http.json.JsonHttpContent;
import com.google.api.client.json.GenericJson;
import com.google.api.client.json.JsonObjectParser;
import com.google.api.client.json.gson.GsonFactory;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

public class Quickstart {
  public static void main(String[] args) throws Exception {
    String base = System.getenv().getOrDefault("CALENDAR_EMULATOR_URL", "http://127.0.0.1:8080");
    String redirectUri = "http://127.0.0.1:3000/oauth2callback";
    NetHttpTransport transport = new NetHttpTransport();
    GsonFactory json = GsonFactory.getDefaultInstance();

    // The OAuth helper URLs are configured apart from the API's root URL.
    GoogleAuthorizationCodeFlow flow = new GoogleAuthorizationCodeFlow.Builder(
            transport, json, "local-calendar-client", "local-calendar-secret",
            List.of("https://www.googleapis.com/auth/calendar.readonly"))
        .setAuthorizationServerEncodedUrl(base + "/oauth/authorize")
        .setTokenServerUrl(new GenericUrl(base + "/oauth/token"))
        .setAccessType("offline")
        .build();

    // 1. Consent: open the printed URL, pick a test user, approve; the service redirects the
    //    browser to this loopback server with the authorization code.
    CompletableFuture<String> code = new CompletableFuture<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 3000), 0);
    server.createContext("/oauth2callback", exchange -> {
      AuthorizationCodeResponseUrl response =
          new AuthorizationCodeResponseUrl("http://127.0.0.1:3000" + exchange.getRequestURI());
      byte[] page = "Signed in. You can close this tab.".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, page.length);
      exchange.getResponseBody().write(page);
      exchange.close();
      if (response.getCode() != null) code.complete(response.getCode());
      else code.completeExceptionally(new IllegalStateException("consent refused: " + response.getError()));
    });
    server.start();
    System.out.println("Open this URL in your browser: " + flow.newAuthorizationUrl().setRedirectUri(redirectUri).build());
    String authorizationCode;
    try {
      authorizationCode = code.get();
    } finally {
      server.stop(0);
    }
    GoogleTokenResponse tokens = flow.newTokenRequest(authorizationCode).setRedirectUri(redirectUri).execute();
    System.out.println("token: scope " + tokens.getScope() + ", refresh token " + (tokens.getRefreshToken() != null ? "received" : "missing"));
    Credential credential = flow.createAndStoreCredential(tokens, "user");

    // 2. Refresh through the service's token endpoint (the flow's token server URL).
    String firstToken = credential.getAccessToken();
    boolean renewed = credential.refreshToken() && !firstToken.equals(credential.getAccessToken());
    System.out.println("refresh: " + (renewed ? "new access token" : "FAILED"));

    // 3. The calendar API under the service's root: {base}/calendar/v3/.
    HttpRequestFactory requests = transport.createRequestFactory(request -> {
      credential.initialize(request);
      request.setParser(new JsonObjectParser(json));
    });
    GenericUrl eventsUrl = new GenericUrl(base + "/calendar/v3/calendars/primary/events");
    eventsUrl.set("timeMin", "2026-10-19T00:00:00+09:00");
    eventsUrl.set("timeMax", "2026-10-20T00:00:00+09:00");
    eventsUrl.set("singleEvents", true);
    eventsUrl.set("orderBy", "startTime");
    GenericJson events = requests.buildGetRequest(eventsUrl).execute().parseAs(GenericJson.class);
    for (Object item : (List<?>) events.get("items")) {
      Map<?, ?> event = (Map<?, ?>) item;
      Map<?, ?> start = (Map<?, ?>) event.get("start");
      Object when = start.containsKey("dateTime") ? start.get("dateTime") : start.get("date");
      System.out.println("event: " + when + " " + event.get("summary"));
    }

    // 4. Free/busy for the same day.
    Map<String, Object> query = Map.of(
        "timeMin", "2026-10-19T00:00:00+09:00",
        "timeMax", "2026-10-20T00:00:00+09:00",
        "timeZone", "Asia/Tokyo",
        "items", List.of(Map.of("id", "primary")));
    GenericJson freeBusy = requests
        .buildPostRequest(new GenericUrl(base + "/calendar/v3/freeBusy"), new JsonHttpContent(json, query))
        .execute()
        .parseAs(GenericJson.class);
    Map<?, ?> primary = (Map<?, ?>) ((Map<?, ?>) freeBusy.get("calendars")).get("primary");
    for (Object item : (List<?>) primary.get("busy")) {
      Map<?, ?> busy = (Map<?, ?>) item;
      System.out.println("busy: " + busy.get("start") + " to " + busy.get("end"));
    }
  }
}
