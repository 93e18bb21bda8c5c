package sampleapp;

/** Does nothing but print: the start-up line and the start-up cost are measured on it. */
public final class HelloApp {

    private HelloApp() {
    }

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
