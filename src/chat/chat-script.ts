/**
 * The chat page's only script, inline (allowed by its hash, like the report's). It talks to its
 * own server over one JSON API, each request carrying the page's token in a header (so no other
 * origin's page can send one without a preflight, which the server refuses). What the server
 * draws is markup made by the report's renderers, every value from the agent escaped; the script
 * only puts it in place: a turn is appended where its message was sent, never redrawing the rest.
 * The conversations live in this page alone: another tab starts its own.
 */
export const CHAT_SCRIPT = `(function () {
  'use strict';
  var main = document.getElementById('chat-main');
  var TOKEN = main.getAttribute('data-token');
  var HAS_AGENT = main.getAttribute('data-agent') === 'yes';
  var conversations = document.getElementById('conversations');
  var status = document.getElementById('status');
  var form = document.getElementById('composer');
  var textBox = document.getElementById('composer-text');
  var attach = document.getElementById('attach');
  var ownFile = document.getElementById('own-file');
  var ownLabel = document.getElementById('own-file-label');
  var channel = document.getElementById('channel');
  var quoting = document.getElementById('quoting');
  var quotingText = document.getElementById('quoting-text');
  var active = null;
  var quote = null;

  function say(text) { status.textContent = text; }

  function api(method, path, body) {
    var init = { method: method, headers: { 'x-chat-token': TOKEN }, cache: 'no-store', credentials: 'same-origin' };
    if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json && json.error ? json.error : 'the server answered ' + response.status);
        return json;
      });
    });
  }

  function fragment(html) {
    var template = document.createElement('template');
    template.innerHTML = html;
    return template.content;
  }

  function phoneOf(key) { return conversations.querySelector('section[data-conversation="' + key + '"]'); }
  function listOf(key) { var phone = phoneOf(key); return phone ? phone.querySelector('ol.chat') : null; }

  function notice(text, bad) {
    var li = document.createElement('li');
    li.className = 'row system' + (bad ? ' refused' : '');
    var lane = document.createElement('div');
    lane.className = 'lane';
    var p = document.createElement('p');
    p.className = 'chip-line';
    var chip = document.createElement('span');
    chip.className = 'turn-chip' + (bad ? ' bad' : '');
    chip.textContent = text;
    p.appendChild(chip);
    lane.appendChild(p);
    li.appendChild(lane);
    var notes = document.createElement('div');
    notes.className = 'notes';
    li.appendChild(notes);
    return li;
  }

  function addPhone(result, replace) {
    if (replace) conversations.textContent = '';
    conversations.appendChild(fragment(result.html));
    active = result.key;
    channel.value = result.channel;
  }

  function placeTurn(key, place, view) {
    var list = listOf(key);
    place.replaceWith(fragment(view.html));
    (view.reactions || []).forEach(function (reaction) {
      var row = list.querySelector('li.row.person[data-message-id="' + CSS.escape(reaction.messageId) + '"] .bubble');
      if (!row) return;
      var old = row.querySelector('.reactions');
      if (old) old.remove();
      row.appendChild(fragment(reaction.html));
    });
    var f = view.figures;
    var errors = f.findings.filter(function (x) { return x.severity === 'error'; }).length;
    var warnings = f.findings.length - errors;
    say('Turn ' + (view.index + 1) + ': ' + (f.status === null ? 'no answer' : 'HTTP ' + f.status) + ', ' + f.latencyMs + ' ms, ' +
      (f.replies === null ? 'no usable reply' : f.replies + (f.replies === 1 ? ' reply' : ' replies')) +
      (errors ? ', ' + errors + (errors === 1 ? ' error' : ' errors') : '') + (warnings ? ', ' + warnings + (warnings === 1 ? ' warning' : ' warnings') : '') + '.');
  }

  function send(key, message, label) {
    var list = listOf(key);
    if (!list) return;
    var empty = list.querySelector('.empty-note');
    if (empty) empty.remove();
    var place = notice('Sending: ' + label + '…', false);
    place.classList.add('pending');
    list.appendChild(place);
    say('Sending: ' + label);
    api('POST', 'api/conversations/' + key + '/messages', message).then(function (result) {
      if (result.refused) { place.replaceWith(notice('Not sent: ' + result.refused, true)); say('Not sent: ' + result.refused); return; }
      placeTurn(key, place, result);
    }).catch(function (error) {
      place.replaceWith(notice('Not sent: ' + error.message, true));
      say('Not sent: ' + error.message);
    });
  }

  function readOwnFile() {
    var file = ownFile.files && ownFile.files[0];
    if (!file) return Promise.reject(new Error('choose a file first'));
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onload = function () {
        var url = String(reader.result);
        resolve({ name: file.name, mime: file.type || 'application/octet-stream', data: url.slice(url.indexOf(',') + 1) });
      };
      reader.onerror = function () { reject(new Error('the file could not be read')); };
      reader.readAsDataURL(file);
    });
  }

  function setQuote(next) {
    quote = next;
    quoting.hidden = !next;
    quotingText.textContent = next ? 'Quoting ' + next.label : '';
  }

  function submit() {
    var text = textBox.value;
    var choice = attach.value;
    if (text.trim() === '' && choice === '') { say('Type a message or attach a file first.'); return; }
    var key = quote ? quote.key : active;
    var message = { text: text };
    if (quote) message.quote = quote.quote;
    var label = text.trim() !== '' ? '“' + text.slice(0, 60) + '”' : 'a file';
    var ready = choice === '' ? Promise.resolve(null) : choice === 'own' ? readOwnFile().then(function (own) { return own; }) : Promise.resolve({ sample: choice });
    ready.then(function (file) {
      if (file) message.file = file;
      textBox.value = '';
      attach.value = '';
      showOwn();
      setQuote(null);
      send(key, message, label);
    }).catch(function (error) { say('Not sent: ' + error.message); });
  }

  function showOwn() {
    var own = attach.value === 'own';
    ownFile.hidden = !own;
    ownLabel.hidden = !own;
  }

  form.addEventListener('submit', function (event) { event.preventDefault(); submit(); });
  textBox.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); submit(); }
  });
  attach.addEventListener('change', showOwn);
  document.getElementById('quote-cancel').addEventListener('click', function () { setQuote(null); textBox.focus(); });

  conversations.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var phone = target ? target.closest('section[data-conversation]') : null;
    if (!phone) return;
    var key = phone.getAttribute('data-conversation');
    var tap = target.closest('button.tap');
    if (tap) {
      send(key, { text: '', tap: { turn: Number(tap.getAttribute('data-turn')), reply: Number(tap.getAttribute('data-reply')), id: tap.getAttribute('data-choice') } },
        'a tap of “' + tap.textContent.trim().slice(0, 60) + '”');
      return;
    }
    var quoteButton = target.closest('button.quote-this');
    if (quoteButton) {
      var from = quoteButton.getAttribute('data-quote-from');
      var q = { from: from, turn: Number(quoteButton.getAttribute('data-turn')) };
      if (quoteButton.hasAttribute('data-reply')) q.reply = Number(quoteButton.getAttribute('data-reply'));
      setQuote({ key: key, quote: q, label: from === 'person' ? 'your message ' + (q.turn + 1) : 'the agent’s reply to message ' + (q.turn + 1) });
      textBox.focus();
    }
  });

  function newConversation(replace) {
    return api('POST', 'api/conversations', { channel: channel.value }).then(function (result) {
      addPhone(result, replace);
      say('A new conversation on ' + result.title + '.');
    }).catch(function (error) { say('Could not start a conversation: ' + error.message); });
  }

  document.getElementById('new-conversation').addEventListener('click', function () { setQuote(null); newConversation(true); textBox.focus(); });

  channel.addEventListener('change', function () {
    var list = active ? listOf(active) : null;
    setQuote(null);
    if (!list || !list.querySelector('li.row.person')) { newConversation(true); return; }
    say('Playing the conversation again on ' + channel.options[channel.selectedIndex].text + '…');
    var from = active;
    api('POST', 'api/conversations/' + from + '/replay', { channel: channel.value }).then(function (result) {
      addPhone(result, false);
      var list = listOf(result.key);
      var empty = list.querySelector('.empty-note');
      if (empty && result.turns.length) empty.remove();
      result.turns.forEach(function (view) {
        var place = notice('', false);
        list.appendChild(place);
        placeTurn(result.key, place, view);
      });
      if (result.stopped) list.appendChild(notice(result.stopped, true));
      say('Played again on ' + result.title + ' as a new conversation: ' + result.turns.length + ' turns' + (result.stopped ? '; ' + result.stopped : '') + '.');
      phoneOf(result.key).scrollIntoView({ block: 'start' });
    }).catch(function (error) { say('Could not play it again: ' + error.message); });
  });

  var scenarioPanel = document.getElementById('scenario-panel');
  var scenarioOut = document.getElementById('scenario-out');
  var scenarioResult = document.getElementById('scenario-result');
  document.getElementById('save-scenario').addEventListener('click', function () {
    scenarioPanel.hidden = !scenarioPanel.hidden;
    if (!scenarioPanel.hidden) document.getElementById('scenario-id').focus();
  });
  function scenario(save) {
    var id = document.getElementById('scenario-id').value.trim();
    api('POST', 'api/conversations/' + active + '/scenario', { id: id, save: save }).then(function (result) {
      scenarioResult.className = result.refused ? 'scenario-result bad' : 'scenario-result';
      scenarioResult.textContent = result.refused ? 'Not a scenario: ' + result.refused : result.file ? 'Saved as ' + result.file + '.' : 'The file:';
      scenarioOut.hidden = !result.yaml;
      scenarioOut.textContent = result.yaml || '';
    }).catch(function (error) { scenarioResult.className = 'scenario-result bad'; scenarioResult.textContent = error.message; });
  }
  document.getElementById('scenario-show').addEventListener('click', function () { scenario(false); });
  document.getElementById('scenario-form').addEventListener('submit', function (event) { event.preventDefault(); scenario(true); });

  if (HAS_AGENT) {
    var output = document.getElementById('agent-output');
    var agentState = document.getElementById('agent-state');
    var shown = '';
    var poll = function () {
      api('GET', 'api/agent').then(function (result) {
        var text = result.lines.join('\\n');
        if (text !== shown) {
          var atEnd = output.scrollTop + output.clientHeight >= output.scrollHeight - 4;
          output.textContent = text;
          shown = text;
          if (atEnd) output.scrollTop = output.scrollHeight;
        }
        agentState.textContent = result.state;
      }).catch(function () { agentState.textContent = 'the chat server does not answer'; });
    };
    poll();
    setInterval(poll, 1500);
    document.getElementById('agent-restart').addEventListener('click', function () {
      agentState.textContent = 'restarting…';
      api('POST', 'api/agent/restart').then(function (result) { agentState.textContent = result.state; say('The agent was restarted.'); poll(); })
        .catch(function (error) { say('Could not restart the agent: ' + error.message); });
    });
  }

  showOwn();
  newConversation(true);
})();`;
