/*
 * A Java agent on the JDK's own com.sun.net.httpserver.HttpServer with Jackson (Debian's
 * libjackson2-databind-java), a default ObjectMapper throughout, to capture what they answer:
 *
 *   /agent   an answer of a Reply class with its unset fields: Jackson writes them as null
 *   /strict  the request read with the default ObjectMapper, which refuses an unknown field
 *            (FAIL_ON_UNKNOWN_PROPERTIES): answered 400 with e.getMessage()
 *   /naive   a body Jackson cannot parse answered 500 with e.getMessage()
 *
 *   javac -cp jackson-databind.jar:jackson-core.jar:jackson-annotations.jar -d OUT JdkJacksonApp.java
 *   java -cp OUT:... JdkJacksonApp PORT      (--version: the versions of Java and Jackson)
 *
 * Used by capture.ts only (CI does not build it).
 */
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

public class JdkJacksonApp {
  public static class Attachment {
    public String kind;
    public String mime;
    public String name;
    public String data;
  }

  public static class Choice {
    public String id;
    public String title;
  }

  public static class Message {
    public String text;
    public List<Attachment> attachments;
    public Choice choice;
  }

  public static class AgentRequest {
    public String conversationId;
    public String messageId;
    public String channel;
    public Message message;
  }

  public static class Image {
    public String url;
  }

  public static class Reply {
    public String type = "message";
    public String text;
    public List<String> buttons;
    public Image image;
    public String replyTo;
  }

  public static class Answer {
    public List<Reply> replies;
  }

  static final ObjectMapper MAPPER = new ObjectMapper();

  static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  static String answer() throws IOException {
    Reply reply = new Reply();
    reply.text = "Hi! What can I get you?";
    Answer answer = new Answer();
    answer.replies = List.of(reply);
    return MAPPER.writeValueAsString(answer);
  }

  public static void main(String[] args) throws IOException {
    if (args[0].equals("--version")) {
      System.out.println("Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
          + ", Jackson databind " + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION
          + " with jackson-core " + com.fasterxml.jackson.core.json.PackageVersion.VERSION);
      return;
    }
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 0);
    server.createContext("/agent", exchange -> {
      MAPPER.readValue(exchange.getRequestBody(), AgentRequest.class);
      send(exchange, 200, "application/json", answer());
    });
    server.createContext("/strict", exchange -> {
      try {
        MAPPER.readValue(exchange.getRequestBody(), AgentRequest.class);
      } catch (JsonProcessingException e) {
        send(exchange, 400, "text/plain; charset=utf-8", e.getMessage());
        return;
      }
      send(exchange, 200, "application/json", answer());
    });
    server.createContext("/naive", exchange -> {
      try {
        MAPPER.readValue(exchange.getRequestBody(), AgentRequest.class);
      } catch (IOException e) {
        send(exchange, 500, "text/plain; charset=utf-8", e.getMessage());
        return;
      }
      send(exchange, 200, "application/json", answer());
    });
    server.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
  }
}
