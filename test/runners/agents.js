// Two fetch-handler agents for the runner tests: one that meets the contract, one whose answer has
// four WhatsApp buttons (WhatsApp shows at most three).

const answer = (replies) => (request) => (request.method === 'POST' ? Response.json({ replies }) : new Response(null, { status: 204 }));

export const goodAgent = answer([{ type: 'message', text: 'Thanks! A barista will answer in a minute.' }]);

export const fourButtonsAgent = answer([
  { type: 'message', text: 'Which size?', buttons: ['s', 'm', 'l', 'xl'].map((id) => ({ id, label: id.toUpperCase() })) },
]);
