# Ruby quickstart: google-api-client (Google::Apis::CalendarV3) + Signet against the local calendar service.
#   gem install google-api-client signet     (google-apis-calendar_v3 with google-api-client >= 0.53)
#   ruby quickstart.rb      (service: npm start -- --fixture fixtures/quickstarts.json)
require 'google/apis/calendar_v3'
require 'signet/oauth_2/client'
require 'socket'
require 'uri'

$stdout.sync = true
BASE = ENV.fetch('CALENDAR_EMULATOR_URL', 'http://127.0.0.1:8080')

# The OAuth helper URLs are configured apart from the API's root URL.
auth = Signet::OAuth2::Client.new(
  authorization_uri: "#{BASE}/oauth/authorize",
  token_credential_uri: "#{BASE}/oauth/token",
  client_id: 'local-calendar-client',
  client_secret: 'local-calendar-secret',
  scope: ['https://www.googleapis.com/auth/calendar.readonly'],
  redirect_uri: 'http://127.0.0.1:3000/oauth2callback'
)

# 1. Consent: open the printed URL, pick a test user, approve; the service redirects the
#    browser to this loopback server with the authorization code.
#    Signet's auth.authorization_uri refuses an http:// authorization endpoint ("must be
#    protected by TLS"), so the URL is built from the same parameters by its helper.
server = TCPServer.new('127.0.0.1', 3000)
authorization_url = Signet::OAuth2.generate_authorization_uri(
  "#{BASE}/oauth/authorize",
  'response_type' => 'code',
  'client_id' => auth.client_id,
  'redirect_uri' => auth.redirect_uri.to_s,
  'scope' => auth.scope.join(' '),
  'access_type' => 'offline'
)
puts "Open this URL in your browser: #{authorization_url}"
code = nil
while code.nil?
  client = server.accept
  target = client.gets.to_s.split(' ')[1].to_s
  while (line = client.gets) && line != "\r\n"; end # the request headers
  path, query = target.split('?', 2)
  if path == '/oauth2callback'
    params = URI.decode_www_form(query.to_s).to_h
    code = params['code'] or abort "consent refused: #{params['error']}"
    client.write "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nSigned in. You can close this tab."
  else
    client.write "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
  end
  client.close
end
server.close
auth.code = code
tokens = auth.fetch_access_token!
puts "token: scope #{tokens['scope']}, refresh token #{auth.refresh_token ? 'received' : 'missing'}"

# 2. Refresh through the service's token endpoint (Signet's token_credential_uri).
first_token = auth.access_token
auth.refresh!
puts "refresh: #{auth.access_token != first_token ? 'new access token' : 'FAILED'}"

# 3. The calendar API at the service's root URL (trailing slash kept; the service path
#    calendar/v3/ stays).
calendar = Google::Apis::CalendarV3::CalendarService.new
calendar.root_url = "#{BASE}/"
calendar.authorization = auth

events = calendar.list_events(
  'primary',
  time_min: '2026-10-19T00:00:00+09:00',
  time_max: '2026-10-20T00:00:00+09:00',
  single_events: true,
  order_by: 'startTime'
)
events.items.each do |event|
  puts "event: #{event.start.date_time&.iso8601 || event.start.date} #{event.summary}"
end

# 4. Free/busy for the same day.
free_busy = calendar.query_freebusy(
  Google::Apis::CalendarV3::FreeBusyRequest.new(
    time_min: '2026-10-19T00:00:00+09:00',
    time_max: '2026-10-20T00:00:00+09:00',
    time_zone: 'Asia/Tokyo',
    items: [Google::Apis::CalendarV3::FreeBusyRequestItem.new(id: 'primary')]
  )
)
free_busy.calendars['primary'].busy.each do |busy|
  puts "busy: #{busy.start.iso8601} to #{busy.end.iso8601}"
end
