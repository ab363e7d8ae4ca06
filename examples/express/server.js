// Serves the app: `node examples/express/server.js`, then `check-endpoint http://127.0.0.1:3000/agent`.
import { app } from './app.js';

app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
