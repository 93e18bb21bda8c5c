package io.timewheel.tck;

import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static java.util.Map.entry;

import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * Which differential tests do not apply to {@link Impl#WHEEL_VT}, and why; registered on {@link TckTest} (and on
 * the soak's SoakTest), so it sees every parameterized invocation of the suite. An invocation whose arguments include {@code WHEEL_VT} is
 * skipped (aborted, reported with its reason) if the runtime has no virtual threads (Java < 21) or if its test
 * is listed below. Every other test runs in that mode as it runs on the JDK's executor and on {@link Impl#WHEEL}.
 *
 * <p>What does not apply: in this mode a due run starts on a new virtual thread, not on a pool thread from the
 * ThreadFactory; the pool's threads only take due tasks and start those virtual threads, so runs are as
 * concurrent as they are due. The tests left out are of three kinds, each reason saying which:
 * <ul>
 *   <li>thread identity: which thread runs a task (a factory thread, the same one for the next task, the one
 *       that calls terminated()), or an interrupt of the pool thread that the task should see;</li>
 *   <li>thread-factory use: a worker that dies of a hook or an Error and is replaced through the factory, with
 *       the throwable at the factory thread's uncaught handler;</li>
 *   <li>pool size: what one (or two) busy pool threads imply in STPE: that a due task stays in the queue while
 *       the worker is busy (blockWorker), that tasks run one after another in hand-over order, that a later
 *       no-op having run (flush) means the earlier ones have, or how many tasks are active.</li>
 * </ul>
 * And one of construction: this mode is built by the builder, whose setters reject a null factory or handler
 * as they get it, before build() checks the core size (the constructors' order is WHEEL's to test).
 *
 * <p>Everything else runs in this mode against the same expectations as on the JDK's STPE. The list is kept in
 * the same words in executor/README.md, section "Due tasks on virtual threads"; VirtualThreadModeTest checks
 * that each entry names a differential test of this suite.
 */
public final class VirtualThreadMode implements InvocationInterceptor {

    /**
     * "Class#method" of each test skipped in virtual-thread mode (the class named from this package down, as
     * "soak.SoakTest"), with its one-line reason.
     */
    static final Map<String, String> EXCLUDED = Map.ofEntries(
            entry("CancelTest#cancelOneOfSeveral_othersRunInOrder",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("CancelTest#cancelPeriodicBeforeFirstRun_neverRuns",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("CancelTest#cancelTrue_ofAQueuedTask_interruptsNobody",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("CancelTest#cancelledTask_neverRuns_underEitherRemoveOnCancelPolicy",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("CancelTest#executedCommand_canBeCancelledThroughItsQueuedTask",
                    "pool size: one busy pool thread must hold the executed task in the queue; here it starts at once on its own virtual thread"),
            entry("CancelTest#removeOnCancelTrue_alsoForDueTasksAndSubmitted",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("ConstructionTest#defaultFactoryThreads_areNonDaemonNormPriority_namedPoolThread",
                    "thread identity: inspects the thread a task runs on, here a (daemon) virtual thread, not a factory thread"),
            entry("ConstructionTest#negativeCoreWithNullArguments_throwsIAE_sizeIsCheckedFirst",
                    "the constructors' check order: this mode is made by the builder, which rejects a null factory or handler when given (WHEEL covers the constructors)"),
            entry("HookFaultTest#afterExecuteThrowingForAPeriodicTask_itHasReQueuedItself_soItKeepsRunning_oneWorkerDiesPerRun",
                    "thread-factory use: counts pool workers dying and replaced by the factory; here the hook runs on, and ends, the run's virtual thread"),
            entry("HookFaultTest#beforeExecuteAlwaysThrowing_everyTaskIsLost_everyWorkerDies_oneReplacementEach",
                    "thread-factory use: counts pool workers dying and replaced by the factory; here the hook runs on, and ends, the run's virtual thread"),
            entry("HookFaultTest#beforeExecuteThrowingForAPeriodicTask_theTaskIsLostForGood_yetCountedCompleted_andTheExecutorTerminates",
                    "thread-factory use: waits for the worker's death at the factory threads' uncaught handler; here the hook ends the run's virtual thread"),
            entry("HookFaultTest#rejectionHandlerThrowing_fromEveryEntryPoint_nothingQueued_existingTasksStillRun_andTheExecutorTerminates",
                    "pool size: one busy pool thread must hold the 1 ms task in the queue while the test counts it; here it starts when due"),
            entry("HookFaultTest#terminatedThrowingOnTheLastWorker_reachesItsUncaughtHandler_theExecutorIsTerminated",
                    "thread identity: expects terminated() on the last pool worker, a factory thread; here the last run to finish, on its virtual thread, can call it"),
            entry("HooksTest#afterExecuteThrowing_theTaskIsComplete_theWorkerIsReplaced",
                    "thread-factory use: expects the throwable at the factory thread's uncaught handler and a replacement worker; here the hook runs on the run's virtual thread"),
            entry("HooksTest#beforeAndAfter_bracketEveryRunOfAPeriodicTask",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("HooksTest#beforeExecuteThrowing_theTaskNeverRuns_theWorkerIsReplaced",
                    "thread-factory use: expects the throwable at the factory thread's uncaught handler and a replacement worker; here the hook runs on the run's virtual thread"),
            entry("HooksTest#cancelInsideBeforeExecute_theBodyNeverRuns_theFutureIsCancelled_afterExecuteStillCalled",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("HooksTest#decorateTaskRunnable_getsTheCallersRunnable_fromSchedulePeriodicExecuteAndSubmit",
                    "pool size: one busy pool thread must keep the executed and submitted tasks not done; here they start at once"),
            entry("HooksTest#decoratedForeignTask_cancelledThroughTheWrapper_neverRuns_andPurgeDropsIt",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("HooksTest#decoratedForeignTask_isReturnedQueuedRunAndSeenByTheHooks",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("HooksTest#removeOnCancelTrue_aCancelledTaskNeverReachesTheHooks",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("HooksTest#submitRunnableWithResult_goesToTheCallableOverload_withAnAdapterOfTheRunnable",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("InterruptFaultTest#taskInterruptingItsOwnThread_theNextTaskRunsUninterrupted_onTheSameWorker",
                    "thread identity: needs the next task on the same worker thread"),
            entry("InterruptFaultTest#workerInterruptedWhileATaskWaitsInterruptibly_theFutureHoldsTheInterruptedException_theWorkerLivesOn",
                    "thread identity: interrupts the pool thread and expects the task to see it; the task runs on its own virtual thread"),
            entry("InterruptFaultTest#workerInterruptedWhileRunningATask_thatTaskSeesIt_theNextTaskOnTheSameThreadDoesNot",
                    "thread identity: interrupts the pool thread and expects the task to see it; the task runs on its own virtual thread"),
            entry("IsolationFaultTest#faultyExecutors_neverDelayNorLoseAHealthyExecutorsTasks",
                    "thread-factory use: expects the faulty hooks' throwables at the factory threads' uncaught handler; here they end virtual run threads"),
            entry("MonitoringTest#getQueue_forExecute_holdsATaskWrappingTheCommand_notTheCommand",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#getQueue_holdsEveryNotYetStartedTask_dueOrDelayed_butNotTheRunningOne",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#getQueue_isALiveView",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#getQueue_remove_takesTheTaskOut_itNeverRunsAndIsNotCompleted",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#queuePoll_withTheLongestTimeout_waitsForTheNextDueTask",
                    "pool size: one busy pool thread must leave the due task to getQueue().poll; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#remove_queuedTask_trueOnceThenFalse_itNeverRuns",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("MonitoringTest#toString_afterShutdownNow_saysShuttingDownUntilTerminated",
                    "pool size: expects pool size 1 while a task runs after shutdownNow; here the run is a virtual thread and the pool thread has left"),
            entry("MonitoringTest#toString_saysShuttingDown_thenTerminated",
                    "pool size: expects pool size 1 while a task runs after shutdown; here the run is a virtual thread and the pool thread has left"),
            entry("MonitoringUnderLoadTest#monitoringCalls_neverThrow_whilePeriodicTasksRearm",
                    "pool size: bounds the periodic tasks out of the queue by the worker count; here runs in flight are not bounded by the pool"),
            entry("OrderingTest#equalDelayTasks_runInSubmissionOrder_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#justDueTask_runsBeforeAZeroDelayTaskSubmittedAfterItFellDue_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#laterSubmittedEarlierDeadline_runsFirst_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#overdueTasksMixedWithNewOnes_runInDeadlineOrder_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#overdueTasks_runInDeadlineOrder_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#zeroDelayFromEveryMethod_runInSubmissionOrder_periodicFirstRunsIncluded",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("OrderingTest#zeroDelayTasks_runInSubmissionOrder_onOneWorker",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("PeriodicTest#fixedRate_catchUp_afterThePoolWasBusyTenAndAHalfPeriods_runsTheTenMissedRunsBackToBack",
                    "pool size: one busy pool thread must keep the fixed-rate task waiting; here its runs start on their own virtual threads"),
            entry("PeriodicTest#periodicRuns_happenOnWorkerThreads_notTheCaller",
                    "thread identity: expects the runs on factory threads; here each is on a new virtual thread"),
            entry("PoolSizingTest#coreZero_neverUsesMoreThanOneThread",
                    "pool size: counts the threads that run tasks; here every run has its own virtual thread"),
            entry("PoolSizingTest#factoryThrowing_executeAndSubmitThrowToo_tasksRunOnceAThreadExists",
                    "pool size: waits for a later no-op (flush) to know the earlier tasks ran, as on one worker; here they run concurrently"),
            entry("PoolSizingTest#maximumPoolSize_hasNoEffect_onlyCoreThreadsRun",
                    "pool size: expects two of five blocking tasks running on two pool threads; here all five start"),
            entry("PoolSizingTest#setCorePoolSizeUp_letsQueuedDueTasksRunConcurrently",
                    "pool size: one busy pool thread must hold the due tasks until the pool grows; here they start at once"),
            entry("PoolSizingTest#workers_comeFromTheFactory_andAreReused",
                    "thread identity: expects tasks on the factory's threads, reused; here each run is on a new virtual thread"),
            entry("SchedulingTest#taskThatIsBothRunnableAndCallable_runsTheMethodOfTheOverloadUsed",
                    "pool size: waits for a later no-op (flush) to know the earlier tasks ran, as on one worker; here they run concurrently"),
            entry("SchedulingTest#throwingTaskFromExecute_isSwallowed_workerSurvives",
                    "thread identity: expects the next task on the same worker thread"),
            entry("ShutdownPolicyTest#alreadyDuePeriodic_runsOnlyUnderThePeriodicPolicy",
                    "pool size: one busy pool thread must hold the due periodic task past shutdown; here it starts at once"),
            entry("ShutdownTest#shutdownNow_returnedTasksNeverRun_andStayNotDone",
                    "pool size: one busy pool thread must hold the due tasks for shutdownNow to return; here they start at once"),
            entry("ShutdownTest#shutdownNow_returnsEveryNeverStartedTask_delayedAndPeriodicIncluded",
                    "pool size: one busy pool thread must hold a due task in the queue until the test acts; here it starts at once on its own virtual thread"),
            entry("SubclassTest#beforeExecute_canInstallPerTaskContext_thatAfterExecuteClears",
                    "pool size: one worker runs due tasks one after another; here they are handed over in that order but run concurrently"),
            entry("TaskErrorFaultTest#decoratedPeriodicTaskWhoseRunThrows_isRequeuedFirst_soItKeepsRunning_eachRunOnAFreshWorker",
                    "thread-factory use: counts pool workers dying and replaced by the factory; here each run's virtual thread ends anyway"),
            entry("TaskErrorFaultTest#decoratedTaskWhoseRunThrowsAnError_killsTheWorker_afterExecuteAndTheUncaughtHandlerGetIt_andItIsReplaced",
                    "thread-factory use: expects the Error at the factory thread's uncaught handler and a replacement worker; here it ends the run's virtual thread"),
            entry("TaskErrorFaultTest#oneShotTasksThrowingErrors_theFutureHoldsTheError_theWorkerLivesOn_nothingIsUncaught",
                    "thread identity: expects every task on the same worker thread"),
            entry("TaskErrorFaultTest#stackOverflowError_isCaughtInTheFuture_theWorkerLivesOn",
                    "thread identity: expects the next task on the same worker thread"),
            entry("ThreadFactoryFaultTest#alreadyStartedThread_isRefusedWithIllegalThreadState_theTaskStaysQueued_andRunsOnTheNextThread",
                    "pool size: waits for a later no-op (flush) to know the earlier tasks ran, as on one worker; here they run concurrently"),
            entry("ThreadFactoryFaultTest#deadOnArrival_taskWaitsForever_theDeadWorkerCountsAsActive_andTheExecutorNeverTerminates",
                    "pool size: getActiveCount counts a pool worker whose thread never started; here it counts the runs in flight"),
            entry("ThreadFactoryFaultTest#factoryFailingMidPool_noQueuedTaskIsLost_theLiveWorkersRunThemAll",
                    "thread-factory use: counts which factory threads ran the tasks; here virtual threads run them"),
            entry("ThreadFactoryFaultTest#factoryReturningNullForAReplacementWorker_queuedTasksWaitForTheNextSchedule",
                    "thread-factory use: needs a worker that dies of a hook and a factory asked for its replacement; here the hook ends a virtual thread"),
            entry("ThreadFactoryFaultTest#factoryThrowingForAReplacementWorker_theUncaughtHandlerGetsIt_queuedTasksWaitForTheNextSchedule",
                    "thread-factory use: needs a worker that dies of a hook and a factory asked for its replacement; here the hook ends a virtual thread"),
            entry("ThreadFactoryFaultTest#startThrowing_onJdk19Plus_theJdkBypassesTheOverride_elseTheErrorPropagatesAndTheTaskStaysQueued",
                    "pool size: waits for a later no-op (flush) to know the earlier tasks ran, as on one worker; here they run concurrently"),
            entry("soak.SoakTest#randomOperations_everyTaskAccountedFor",
                    "pool size: its oracle checks active <= largest pool size and lets a stopping pool drop at most one task per worker; here runs in flight are not bounded by the pool")
    );

    private static final boolean VIRTUAL_THREADS = Runtime.version().feature() >= 21;

    private static final String PACKAGE = "io.timewheel.tck.";

    /** Aborts the calling test (reported as skipped) on a runtime without virtual threads. */
    static void assumeVirtualThreads() {
        assumeTrue(VIRTUAL_THREADS, "virtual-thread mode needs Java 21+");
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                            ReflectiveInvocationContext<Method> invocationContext,
                                            ExtensionContext extensionContext) throws Throwable {
        if (invocationContext.getArguments().contains(Impl.WHEEL_VT)) {
            Method test = invocationContext.getExecutable();
            String reason = EXCLUDED.get(test.getDeclaringClass().getName().substring(PACKAGE.length()) + "#"
                    + test.getName());
            if (!VIRTUAL_THREADS || reason != null) {
                invocation.skip();
                abort(!VIRTUAL_THREADS ? "virtual-thread mode needs Java 21+" : "not in virtual-thread mode: " + reason);
            }
        }
        invocation.proceed();
    }
}
