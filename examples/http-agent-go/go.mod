module cafe-agent

go 1.19
