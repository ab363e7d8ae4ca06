# A Sinatra agent written the common way, in production mode on the server Sinatra picks by
# default, to capture what Sinatra answers:
#   /agent  to_json of a reply hash with nil values: written as null (content_type :json)
#   /text   to_json with no content_type: Sinatra sends text/html
#   both    JSON.parse(request.body.read) with no rescue: a body that is not JSON is Sinatra's 500 page
#
#   ruby sinatra_app.rb PORT
#
# Debian's ruby-sinatra; used by capture.ts only (CI does not have Ruby).
require 'sinatra'
require 'json'

set :environment, :production
set :bind, '127.0.0.1'
set :port, Integer(ARGV[0])
set :logging, false
set :quiet, true

post '/agent' do
  JSON.parse(request.body.read)
  content_type :json
  { replies: [{ type: 'message', text: 'Hi! What can I get you?', buttons: nil, image: nil, replyTo: nil }] }.to_json
end

post '/text' do
  JSON.parse(request.body.read)
  { replies: [{ type: 'message', text: 'Hi! What can I get you?' }] }.to_json
end

head '/' do
  200
end
