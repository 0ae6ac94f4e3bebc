// Node quickstart: googleapis + google-auth-library against the local calendar service.
//   npm install googleapis google-auth-library
//   node quickstart.mjs      (service: npm start -- --fixture fixtures/quickstarts.json)
import http from 'node:http';
import { OAuth2Client } from 'google-auth-library';
import { google } from 'googleapis';

const BASE = process.env.CALENDAR_EMULATOR_URL ?? 'http://127.0.0.1:8080';
const REDIRECT_URI = 'http://127.0.0.1:3000/oauth2callback';

// The OAuth helper URLs are configured apart from the API's root URL.
const auth = new OAuth2Client({
  clientId: 'local-calendar-client',
  clientSecret: 'local-calendar-secret',
  redirectUri: REDIRECT_URI,
  endpoints: {
    oauth2AuthBaseUrl: `${BASE}/oauth/authorize`,
    oauth2TokenUrl: `${BASE}/oauth/token`,
    oauth2RevokeUrl: `${BASE}/oauth/revoke`,
  },
});

// 1. Consent: open the printed URL, pick a test user, approve; the service redirects the
//    browser to this loopback server with the authorization code.
const code = await new Promise((resolve, reject) => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, REDIRECT_URI);
    if (url.pathname !== '/oauth2callback') return void res.writeHead(404).end();
    res.end('Signed in. You can close this tab.');
    server.close();
    const code = url.searchParams.get('code');
    if (code) resolve(code);
    else reject(new Error(`consent refused: ${url.searchParams.get('error')}`));
  });
  server.listen(3000, '127.0.0.1', () => {
    const authUrl = auth.generateAuthUrl({
      access_type: 'offline',
      scope: ['https://www.googleapis.com/auth/calendar.readonly'],
    });
    console.log(`Open this URL in your browser: ${authUrl}`);
  });
});
const { tokens } = await auth.getToken(code);
console.log(`token: scope ${tokens.scope}, refresh token ${tokens.refresh_token ? 'received' : 'missing'}`);

// 2. Refresh through the service's token endpoint: holding only the refresh token, the client
//    asks for a new access token before its first call.
auth.setCredentials({ refresh_token: tokens.refresh_token });
const { token } = await auth.getAccessToken();
console.log(`refresh: ${token && token !== tokens.access_token ? 'new access token' : 'FAILED'}`);

// 3. The calendar API at the service's root URL (trailing slash kept).
const calendar = google.calendar({ version: 'v3', rootUrl: `${BASE}/`, auth });

const events = await calendar.events.list({
  calendarId: 'primary',
  timeMin: '2026-10-19T00:00:00+09:00',
  timeMax: '2026-10-20T00:00:00+09:00',
  singleEvents: true,
  orderBy: 'startTime',
});
for (const event of events.data.items ?? []) {
  console.log(`event: ${event.start?.dateTime ?? event.start?.date} ${event.summary}`);
}

// 4. Free/busy for the same day.
const freeBusy = await calendar.freebusy.query({
  requestBody: {
    timeMin: '2026-10-19T00:00:00+09:00',
    timeMax: '2026-10-20T00:00:00+09:00',
    timeZone: 'Asia/Tokyo',
    items: [{ id: 'primary' }],
  },
});
for (const busy of freeBusy.data.calendars?.primary?.busy ?? []) {
  console.log(`busy: ${busy.start} to ${busy.end}`);
}
