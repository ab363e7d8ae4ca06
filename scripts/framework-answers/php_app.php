<?php
// A PHP agent for PHP's built-in server, at PHP's defaults, to capture what PHP answers:
//   /agent  json_encode of a reply array with its unset keys null: PHP writes them as null
//   /text   echo json_encode(...) with no header(): PHP sends its default_mimetype, text/html
//
//   php -S 127.0.0.1:PORT php_app.php
//
// Used by capture.ts only (CI does not have PHP).
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    return;
}
$request = json_decode(file_get_contents('php://input'), true);
if ($path === '/agent') {
    header('Content-Type: application/json');
    echo json_encode(['replies' => [['type' => 'message', 'text' => 'Hi! What can I get you?', 'buttons' => null, 'image' => null, 'replyTo' => null]]]);
} elseif ($path === '/text') {
    echo json_encode(['replies' => [['type' => 'message', 'text' => 'Hi! What can I get you?']]]);
} else {
    http_response_code(404);
}
