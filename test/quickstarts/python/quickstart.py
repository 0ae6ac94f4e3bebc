# Python quickstart: google-api-python-client + google-auth-oauthlib against the local calendar service.
#   pip install "google-api-python-client>=2" google-auth-oauthlib
#   python3 quickstart.py      (service: npm start -- --fixture fixtures/quickstarts.json)
import os

from google.auth.transport.requests import Request
from google.oauth2.credentials import Credentials
from google_auth_oauthlib.flow import InstalledAppFlow
from googleapiclient.discovery import build

BASE = os.environ.get("CALENDAR_EMULATOR_URL", "http://127.0.0.1:8080")
# oauthlib refuses OAuth over plain http unless told that this is a local test.
os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"
SCOPES = ["https://www.googleapis.com/auth/calendar.readonly"]

# The OAuth helper URLs are configured apart from the API's endpoint.
CLIENT_CONFIG = {
    "installed": {
        "client_id": "local-calendar-client",
        "client_secret": "local-calendar-secret",
        "auth_uri": f"{BASE}/oauth/authorize",
        "token_uri": f"{BASE}/oauth/token",
        "redirect_uris": ["http://127.0.0.1:8085/"],
    }
}

# 1. Consent: run_local_server opens the browser on the consent page and waits on
#    http://127.0.0.1:8085/ for the redirect; that exact URI is registered in the fixture.
flow = InstalledAppFlow.from_client_config(CLIENT_CONFIG, SCOPES)
creds = flow.run_local_server(host="127.0.0.1", port=8085)
print(f"token: scope {' '.join(creds.scopes)}, refresh token {'received' if creds.refresh_token else 'missing'}")

# 2. Refresh through the service's token endpoint (creds.token_uri is the service's).
first_token = creds.token
creds.refresh(Request())
print(f"refresh: {'new access token' if creds.token != first_token else 'FAILED'}")

# 3. The calendar API: api_endpoint replaces the whole base, so it includes /calendar/v3/.
calendar = build(
    "calendar",
    "v3",
    credentials=creds,
    client_options={"api_endpoint": f"{BASE}/calendar/v3/"},
)

events = calendar.events().list(
    calendarId="primary",
    timeMin="2026-10-19T00:00:00+09:00",
    timeMax="2026-10-20T00:00:00+09:00",
    singleEvents=True,
    orderBy="startTime",
).execute()
for event in events.get("items", []):
    print(f"event: {event['start'].get('dateTime', event['start'].get('date'))} {event['summary']}")

# 4. Free/busy for the same day.
free_busy = calendar.freebusy().query(
    body={
        "timeMin": "2026-10-19T00:00:00+09:00",
        "timeMax": "2026-10-20T00:00:00+09:00",
        "timeZone": "Asia/Tokyo",
        "items": [{"id": "primary"}],
    }
).execute()
for busy in free_busy["calendars"]["primary"]["busy"]:
    print(f"busy: {busy['start']} to {busy['end']}")
